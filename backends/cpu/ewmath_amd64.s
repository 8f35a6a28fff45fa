//go:build amd64 && !purego

#include "textflag.h"

// Constants of ewmath_amd64.s, each repeated in a 32-byte vector: the
// exp of expf.go's Cephes scheme with its clamps [-104, 89] and the
// exponent bias, the sign and magnitude masks, softplus's log terms and
// tanh's clamps ±9 and rational coefficients.
DATA ·ewmC+0(SB)/4, $0x3fb8aa3b // log2e
DATA ·ewmC+4(SB)/4, $0x3fb8aa3b
DATA ·ewmC+8(SB)/4, $0x3fb8aa3b
DATA ·ewmC+12(SB)/4, $0x3fb8aa3b
DATA ·ewmC+16(SB)/4, $0x3fb8aa3b
DATA ·ewmC+20(SB)/4, $0x3fb8aa3b
DATA ·ewmC+24(SB)/4, $0x3fb8aa3b
DATA ·ewmC+28(SB)/4, $0x3fb8aa3b
DATA ·ewmC+32(SB)/4, $0xbf318000 // negln2hi
DATA ·ewmC+36(SB)/4, $0xbf318000
DATA ·ewmC+40(SB)/4, $0xbf318000
DATA ·ewmC+44(SB)/4, $0xbf318000
DATA ·ewmC+48(SB)/4, $0xbf318000
DATA ·ewmC+52(SB)/4, $0xbf318000
DATA ·ewmC+56(SB)/4, $0xbf318000
DATA ·ewmC+60(SB)/4, $0xbf318000
DATA ·ewmC+64(SB)/4, $0x395e8083 // negln2lo
DATA ·ewmC+68(SB)/4, $0x395e8083
DATA ·ewmC+72(SB)/4, $0x395e8083
DATA ·ewmC+76(SB)/4, $0x395e8083
DATA ·ewmC+80(SB)/4, $0x395e8083
DATA ·ewmC+84(SB)/4, $0x395e8083
DATA ·ewmC+88(SB)/4, $0x395e8083
DATA ·ewmC+92(SB)/4, $0x395e8083
DATA ·ewmC+96(SB)/4, $0x39506967 // p0
DATA ·ewmC+100(SB)/4, $0x39506967
DATA ·ewmC+104(SB)/4, $0x39506967
DATA ·ewmC+108(SB)/4, $0x39506967
DATA ·ewmC+112(SB)/4, $0x39506967
DATA ·ewmC+116(SB)/4, $0x39506967
DATA ·ewmC+120(SB)/4, $0x39506967
DATA ·ewmC+124(SB)/4, $0x39506967
DATA ·ewmC+128(SB)/4, $0x3ab743ce // p1
DATA ·ewmC+132(SB)/4, $0x3ab743ce
DATA ·ewmC+136(SB)/4, $0x3ab743ce
DATA ·ewmC+140(SB)/4, $0x3ab743ce
DATA ·ewmC+144(SB)/4, $0x3ab743ce
DATA ·ewmC+148(SB)/4, $0x3ab743ce
DATA ·ewmC+152(SB)/4, $0x3ab743ce
DATA ·ewmC+156(SB)/4, $0x3ab743ce
DATA ·ewmC+160(SB)/4, $0x3c088908 // p2
DATA ·ewmC+164(SB)/4, $0x3c088908
DATA ·ewmC+168(SB)/4, $0x3c088908
DATA ·ewmC+172(SB)/4, $0x3c088908
DATA ·ewmC+176(SB)/4, $0x3c088908
DATA ·ewmC+180(SB)/4, $0x3c088908
DATA ·ewmC+184(SB)/4, $0x3c088908
DATA ·ewmC+188(SB)/4, $0x3c088908
DATA ·ewmC+192(SB)/4, $0x3d2aa9c1 // p3
DATA ·ewmC+196(SB)/4, $0x3d2aa9c1
DATA ·ewmC+200(SB)/4, $0x3d2aa9c1
DATA ·ewmC+204(SB)/4, $0x3d2aa9c1
DATA ·ewmC+208(SB)/4, $0x3d2aa9c1
DATA ·ewmC+212(SB)/4, $0x3d2aa9c1
DATA ·ewmC+216(SB)/4, $0x3d2aa9c1
DATA ·ewmC+220(SB)/4, $0x3d2aa9c1
DATA ·ewmC+224(SB)/4, $0x3e2aaaaa // p4
DATA ·ewmC+228(SB)/4, $0x3e2aaaaa
DATA ·ewmC+232(SB)/4, $0x3e2aaaaa
DATA ·ewmC+236(SB)/4, $0x3e2aaaaa
DATA ·ewmC+240(SB)/4, $0x3e2aaaaa
DATA ·ewmC+244(SB)/4, $0x3e2aaaaa
DATA ·ewmC+248(SB)/4, $0x3e2aaaaa
DATA ·ewmC+252(SB)/4, $0x3e2aaaaa
DATA ·ewmC+256(SB)/4, $0x3f000000 // p5
DATA ·ewmC+260(SB)/4, $0x3f000000
DATA ·ewmC+264(SB)/4, $0x3f000000
DATA ·ewmC+268(SB)/4, $0x3f000000
DATA ·ewmC+272(SB)/4, $0x3f000000
DATA ·ewmC+276(SB)/4, $0x3f000000
DATA ·ewmC+280(SB)/4, $0x3f000000
DATA ·ewmC+284(SB)/4, $0x3f000000
DATA ·ewmC+288(SB)/4, $0x3f800000 // one
DATA ·ewmC+292(SB)/4, $0x3f800000
DATA ·ewmC+296(SB)/4, $0x3f800000
DATA ·ewmC+300(SB)/4, $0x3f800000
DATA ·ewmC+304(SB)/4, $0x3f800000
DATA ·ewmC+308(SB)/4, $0x3f800000
DATA ·ewmC+312(SB)/4, $0x3f800000
DATA ·ewmC+316(SB)/4, $0x3f800000
DATA ·ewmC+320(SB)/4, $0xc2d00000 // lo
DATA ·ewmC+324(SB)/4, $0xc2d00000
DATA ·ewmC+328(SB)/4, $0xc2d00000
DATA ·ewmC+332(SB)/4, $0xc2d00000
DATA ·ewmC+336(SB)/4, $0xc2d00000
DATA ·ewmC+340(SB)/4, $0xc2d00000
DATA ·ewmC+344(SB)/4, $0xc2d00000
DATA ·ewmC+348(SB)/4, $0xc2d00000
DATA ·ewmC+352(SB)/4, $0x42b20000 // hi
DATA ·ewmC+356(SB)/4, $0x42b20000
DATA ·ewmC+360(SB)/4, $0x42b20000
DATA ·ewmC+364(SB)/4, $0x42b20000
DATA ·ewmC+368(SB)/4, $0x42b20000
DATA ·ewmC+372(SB)/4, $0x42b20000
DATA ·ewmC+376(SB)/4, $0x42b20000
DATA ·ewmC+380(SB)/4, $0x42b20000
DATA ·ewmC+384(SB)/4, $0x0000007f // bias
DATA ·ewmC+388(SB)/4, $0x0000007f
DATA ·ewmC+392(SB)/4, $0x0000007f
DATA ·ewmC+396(SB)/4, $0x0000007f
DATA ·ewmC+400(SB)/4, $0x0000007f
DATA ·ewmC+404(SB)/4, $0x0000007f
DATA ·ewmC+408(SB)/4, $0x0000007f
DATA ·ewmC+412(SB)/4, $0x0000007f
DATA ·ewmC+416(SB)/4, $0x80000000 // sign
DATA ·ewmC+420(SB)/4, $0x80000000
DATA ·ewmC+424(SB)/4, $0x80000000
DATA ·ewmC+428(SB)/4, $0x80000000
DATA ·ewmC+432(SB)/4, $0x80000000
DATA ·ewmC+436(SB)/4, $0x80000000
DATA ·ewmC+440(SB)/4, $0x80000000
DATA ·ewmC+444(SB)/4, $0x80000000
DATA ·ewmC+448(SB)/4, $0x7fffffff // abs
DATA ·ewmC+452(SB)/4, $0x7fffffff
DATA ·ewmC+456(SB)/4, $0x7fffffff
DATA ·ewmC+460(SB)/4, $0x7fffffff
DATA ·ewmC+464(SB)/4, $0x7fffffff
DATA ·ewmC+468(SB)/4, $0x7fffffff
DATA ·ewmC+472(SB)/4, $0x7fffffff
DATA ·ewmC+476(SB)/4, $0x7fffffff
DATA ·ewmC+480(SB)/4, $0xc0000000 // negtwo
DATA ·ewmC+484(SB)/4, $0xc0000000
DATA ·ewmC+488(SB)/4, $0xc0000000
DATA ·ewmC+492(SB)/4, $0xc0000000
DATA ·ewmC+496(SB)/4, $0xc0000000
DATA ·ewmC+500(SB)/4, $0xc0000000
DATA ·ewmC+504(SB)/4, $0xc0000000
DATA ·ewmC+508(SB)/4, $0xc0000000
DATA ·ewmC+512(SB)/4, $0x3e800000 // quarter
DATA ·ewmC+516(SB)/4, $0x3e800000
DATA ·ewmC+520(SB)/4, $0x3e800000
DATA ·ewmC+524(SB)/4, $0x3e800000
DATA ·ewmC+528(SB)/4, $0x3e800000
DATA ·ewmC+532(SB)/4, $0x3e800000
DATA ·ewmC+536(SB)/4, $0x3e800000
DATA ·ewmC+540(SB)/4, $0x3e800000
DATA ·ewmC+544(SB)/4, $0x3cb327a4 // t9
DATA ·ewmC+548(SB)/4, $0x3cb327a4
DATA ·ewmC+552(SB)/4, $0x3cb327a4
DATA ·ewmC+556(SB)/4, $0x3cb327a4
DATA ·ewmC+560(SB)/4, $0x3cb327a4
DATA ·ewmC+564(SB)/4, $0x3cb327a4
DATA ·ewmC+568(SB)/4, $0x3cb327a4
DATA ·ewmC+572(SB)/4, $0x3cb327a4
DATA ·ewmC+576(SB)/4, $0xbd5d0dd1 // t7
DATA ·ewmC+580(SB)/4, $0xbd5d0dd1
DATA ·ewmC+584(SB)/4, $0xbd5d0dd1
DATA ·ewmC+588(SB)/4, $0xbd5d0dd1
DATA ·ewmC+592(SB)/4, $0xbd5d0dd1
DATA ·ewmC+596(SB)/4, $0xbd5d0dd1
DATA ·ewmC+600(SB)/4, $0xbd5d0dd1
DATA ·ewmC+604(SB)/4, $0xbd5d0dd1
DATA ·ewmC+608(SB)/4, $0x3e088889 // t5
DATA ·ewmC+612(SB)/4, $0x3e088889
DATA ·ewmC+616(SB)/4, $0x3e088889
DATA ·ewmC+620(SB)/4, $0x3e088889
DATA ·ewmC+624(SB)/4, $0x3e088889
DATA ·ewmC+628(SB)/4, $0x3e088889
DATA ·ewmC+632(SB)/4, $0x3e088889
DATA ·ewmC+636(SB)/4, $0x3e088889
DATA ·ewmC+640(SB)/4, $0xbeaaaaab // t3
DATA ·ewmC+644(SB)/4, $0xbeaaaaab
DATA ·ewmC+648(SB)/4, $0xbeaaaaab
DATA ·ewmC+652(SB)/4, $0xbeaaaaab
DATA ·ewmC+656(SB)/4, $0xbeaaaaab
DATA ·ewmC+660(SB)/4, $0xbeaaaaab
DATA ·ewmC+664(SB)/4, $0xbeaaaaab
DATA ·ewmC+668(SB)/4, $0xbeaaaaab
DATA ·ewmC+672(SB)/4, $0xff800000 // neginf
DATA ·ewmC+676(SB)/4, $0xff800000
DATA ·ewmC+680(SB)/4, $0xff800000
DATA ·ewmC+684(SB)/4, $0xff800000
DATA ·ewmC+688(SB)/4, $0xff800000
DATA ·ewmC+692(SB)/4, $0xff800000
DATA ·ewmC+696(SB)/4, $0xff800000
DATA ·ewmC+700(SB)/4, $0xff800000
DATA ·ewmC+704(SB)/4, $0x3ed413cd // sqrt2m1
DATA ·ewmC+708(SB)/4, $0x3ed413cd
DATA ·ewmC+712(SB)/4, $0x3ed413cd
DATA ·ewmC+716(SB)/4, $0x3ed413cd
DATA ·ewmC+720(SB)/4, $0x3ed413cd
DATA ·ewmC+724(SB)/4, $0x3ed413cd
DATA ·ewmC+728(SB)/4, $0x3ed413cd
DATA ·ewmC+732(SB)/4, $0x3ed413cd
DATA ·ewmC+736(SB)/4, $0x3f000000 // half
DATA ·ewmC+740(SB)/4, $0x3f000000
DATA ·ewmC+744(SB)/4, $0x3f000000
DATA ·ewmC+748(SB)/4, $0x3f000000
DATA ·ewmC+752(SB)/4, $0x3f000000
DATA ·ewmC+756(SB)/4, $0x3f000000
DATA ·ewmC+760(SB)/4, $0x3f000000
DATA ·ewmC+764(SB)/4, $0x3f000000
DATA ·ewmC+768(SB)/4, $0xbf800000 // negone
DATA ·ewmC+772(SB)/4, $0xbf800000
DATA ·ewmC+776(SB)/4, $0xbf800000
DATA ·ewmC+780(SB)/4, $0xbf800000
DATA ·ewmC+784(SB)/4, $0xbf800000
DATA ·ewmC+788(SB)/4, $0xbf800000
DATA ·ewmC+792(SB)/4, $0xbf800000
DATA ·ewmC+796(SB)/4, $0xbf800000
DATA ·ewmC+800(SB)/4, $0x3d9021bb // l8
DATA ·ewmC+804(SB)/4, $0x3d9021bb
DATA ·ewmC+808(SB)/4, $0x3d9021bb
DATA ·ewmC+812(SB)/4, $0x3d9021bb
DATA ·ewmC+816(SB)/4, $0x3d9021bb
DATA ·ewmC+820(SB)/4, $0x3d9021bb
DATA ·ewmC+824(SB)/4, $0x3d9021bb
DATA ·ewmC+828(SB)/4, $0x3d9021bb
DATA ·ewmC+832(SB)/4, $0xbdebd1b8 // l7
DATA ·ewmC+836(SB)/4, $0xbdebd1b8
DATA ·ewmC+840(SB)/4, $0xbdebd1b8
DATA ·ewmC+844(SB)/4, $0xbdebd1b8
DATA ·ewmC+848(SB)/4, $0xbdebd1b8
DATA ·ewmC+852(SB)/4, $0xbdebd1b8
DATA ·ewmC+856(SB)/4, $0xbdebd1b8
DATA ·ewmC+860(SB)/4, $0xbdebd1b8
DATA ·ewmC+864(SB)/4, $0x3def251a // l6
DATA ·ewmC+868(SB)/4, $0x3def251a
DATA ·ewmC+872(SB)/4, $0x3def251a
DATA ·ewmC+876(SB)/4, $0x3def251a
DATA ·ewmC+880(SB)/4, $0x3def251a
DATA ·ewmC+884(SB)/4, $0x3def251a
DATA ·ewmC+888(SB)/4, $0x3def251a
DATA ·ewmC+892(SB)/4, $0x3def251a
DATA ·ewmC+896(SB)/4, $0xbdfe5d4f // l5
DATA ·ewmC+900(SB)/4, $0xbdfe5d4f
DATA ·ewmC+904(SB)/4, $0xbdfe5d4f
DATA ·ewmC+908(SB)/4, $0xbdfe5d4f
DATA ·ewmC+912(SB)/4, $0xbdfe5d4f
DATA ·ewmC+916(SB)/4, $0xbdfe5d4f
DATA ·ewmC+920(SB)/4, $0xbdfe5d4f
DATA ·ewmC+924(SB)/4, $0xbdfe5d4f
DATA ·ewmC+928(SB)/4, $0x3e11e9bf // l4
DATA ·ewmC+932(SB)/4, $0x3e11e9bf
DATA ·ewmC+936(SB)/4, $0x3e11e9bf
DATA ·ewmC+940(SB)/4, $0x3e11e9bf
DATA ·ewmC+944(SB)/4, $0x3e11e9bf
DATA ·ewmC+948(SB)/4, $0x3e11e9bf
DATA ·ewmC+952(SB)/4, $0x3e11e9bf
DATA ·ewmC+956(SB)/4, $0x3e11e9bf
DATA ·ewmC+960(SB)/4, $0xbe2aae50 // l3
DATA ·ewmC+964(SB)/4, $0xbe2aae50
DATA ·ewmC+968(SB)/4, $0xbe2aae50
DATA ·ewmC+972(SB)/4, $0xbe2aae50
DATA ·ewmC+976(SB)/4, $0xbe2aae50
DATA ·ewmC+980(SB)/4, $0xbe2aae50
DATA ·ewmC+984(SB)/4, $0xbe2aae50
DATA ·ewmC+988(SB)/4, $0xbe2aae50
DATA ·ewmC+992(SB)/4, $0x3e4cceac // l2
DATA ·ewmC+996(SB)/4, $0x3e4cceac
DATA ·ewmC+1000(SB)/4, $0x3e4cceac
DATA ·ewmC+1004(SB)/4, $0x3e4cceac
DATA ·ewmC+1008(SB)/4, $0x3e4cceac
DATA ·ewmC+1012(SB)/4, $0x3e4cceac
DATA ·ewmC+1016(SB)/4, $0x3e4cceac
DATA ·ewmC+1020(SB)/4, $0x3e4cceac
DATA ·ewmC+1024(SB)/4, $0xbe7ffffc // l1
DATA ·ewmC+1028(SB)/4, $0xbe7ffffc
DATA ·ewmC+1032(SB)/4, $0xbe7ffffc
DATA ·ewmC+1036(SB)/4, $0xbe7ffffc
DATA ·ewmC+1040(SB)/4, $0xbe7ffffc
DATA ·ewmC+1044(SB)/4, $0xbe7ffffc
DATA ·ewmC+1048(SB)/4, $0xbe7ffffc
DATA ·ewmC+1052(SB)/4, $0xbe7ffffc
DATA ·ewmC+1056(SB)/4, $0x3eaaaaaa // l0
DATA ·ewmC+1060(SB)/4, $0x3eaaaaaa
DATA ·ewmC+1064(SB)/4, $0x3eaaaaaa
DATA ·ewmC+1068(SB)/4, $0x3eaaaaaa
DATA ·ewmC+1072(SB)/4, $0x3eaaaaaa
DATA ·ewmC+1076(SB)/4, $0x3eaaaaaa
DATA ·ewmC+1080(SB)/4, $0x3eaaaaaa
DATA ·ewmC+1084(SB)/4, $0x3eaaaaaa
DATA ·ewmC+1088(SB)/4, $0xb95e8083 // ln2lo
DATA ·ewmC+1092(SB)/4, $0xb95e8083
DATA ·ewmC+1096(SB)/4, $0xb95e8083
DATA ·ewmC+1100(SB)/4, $0xb95e8083
DATA ·ewmC+1104(SB)/4, $0xb95e8083
DATA ·ewmC+1108(SB)/4, $0xb95e8083
DATA ·ewmC+1112(SB)/4, $0xb95e8083
DATA ·ewmC+1116(SB)/4, $0xb95e8083
DATA ·ewmC+1120(SB)/4, $0xbf000000 // neghalf
DATA ·ewmC+1124(SB)/4, $0xbf000000
DATA ·ewmC+1128(SB)/4, $0xbf000000
DATA ·ewmC+1132(SB)/4, $0xbf000000
DATA ·ewmC+1136(SB)/4, $0xbf000000
DATA ·ewmC+1140(SB)/4, $0xbf000000
DATA ·ewmC+1144(SB)/4, $0xbf000000
DATA ·ewmC+1148(SB)/4, $0xbf000000
DATA ·ewmC+1152(SB)/4, $0x3f318000 // ln2hi
DATA ·ewmC+1156(SB)/4, $0x3f318000
DATA ·ewmC+1160(SB)/4, $0x3f318000
DATA ·ewmC+1164(SB)/4, $0x3f318000
DATA ·ewmC+1168(SB)/4, $0x3f318000
DATA ·ewmC+1172(SB)/4, $0x3f318000
DATA ·ewmC+1176(SB)/4, $0x3f318000
DATA ·ewmC+1180(SB)/4, $0x3f318000
DATA ·ewmC+1184(SB)/4, $0x00000000 // zero
DATA ·ewmC+1188(SB)/4, $0x00000000
DATA ·ewmC+1192(SB)/4, $0x00000000
DATA ·ewmC+1196(SB)/4, $0x00000000
DATA ·ewmC+1200(SB)/4, $0x00000000
DATA ·ewmC+1204(SB)/4, $0x00000000
DATA ·ewmC+1208(SB)/4, $0x00000000
DATA ·ewmC+1212(SB)/4, $0x00000000
DATA ·ewmC+1216(SB)/4, $0xc1100000 // tneg9
DATA ·ewmC+1220(SB)/4, $0xc1100000
DATA ·ewmC+1224(SB)/4, $0xc1100000
DATA ·ewmC+1228(SB)/4, $0xc1100000
DATA ·ewmC+1232(SB)/4, $0xc1100000
DATA ·ewmC+1236(SB)/4, $0xc1100000
DATA ·ewmC+1240(SB)/4, $0xc1100000
DATA ·ewmC+1244(SB)/4, $0xc1100000
DATA ·ewmC+1248(SB)/4, $0x41100000 // tpos9
DATA ·ewmC+1252(SB)/4, $0x41100000
DATA ·ewmC+1256(SB)/4, $0x41100000
DATA ·ewmC+1260(SB)/4, $0x41100000
DATA ·ewmC+1264(SB)/4, $0x41100000
DATA ·ewmC+1268(SB)/4, $0x41100000
DATA ·ewmC+1272(SB)/4, $0x41100000
DATA ·ewmC+1276(SB)/4, $0x41100000
DATA ·ewmC+1280(SB)/4, $0xa59f25c0 // ta13
DATA ·ewmC+1284(SB)/4, $0xa59f25c0
DATA ·ewmC+1288(SB)/4, $0xa59f25c0
DATA ·ewmC+1292(SB)/4, $0xa59f25c0
DATA ·ewmC+1296(SB)/4, $0xa59f25c0
DATA ·ewmC+1300(SB)/4, $0xa59f25c0
DATA ·ewmC+1304(SB)/4, $0xa59f25c0
DATA ·ewmC+1308(SB)/4, $0xa59f25c0
DATA ·ewmC+1312(SB)/4, $0x2a61337e // ta11
DATA ·ewmC+1316(SB)/4, $0x2a61337e
DATA ·ewmC+1320(SB)/4, $0x2a61337e
DATA ·ewmC+1324(SB)/4, $0x2a61337e
DATA ·ewmC+1328(SB)/4, $0x2a61337e
DATA ·ewmC+1332(SB)/4, $0x2a61337e
DATA ·ewmC+1336(SB)/4, $0x2a61337e
DATA ·ewmC+1340(SB)/4, $0x2a61337e
DATA ·ewmC+1344(SB)/4, $0xaebd37ff // ta9
DATA ·ewmC+1348(SB)/4, $0xaebd37ff
DATA ·ewmC+1352(SB)/4, $0xaebd37ff
DATA ·ewmC+1356(SB)/4, $0xaebd37ff
DATA ·ewmC+1360(SB)/4, $0xaebd37ff
DATA ·ewmC+1364(SB)/4, $0xaebd37ff
DATA ·ewmC+1368(SB)/4, $0xaebd37ff
DATA ·ewmC+1372(SB)/4, $0xaebd37ff
DATA ·ewmC+1376(SB)/4, $0x335c0041 // ta7
DATA ·ewmC+1380(SB)/4, $0x335c0041
DATA ·ewmC+1384(SB)/4, $0x335c0041
DATA ·ewmC+1388(SB)/4, $0x335c0041
DATA ·ewmC+1392(SB)/4, $0x335c0041
DATA ·ewmC+1396(SB)/4, $0x335c0041
DATA ·ewmC+1400(SB)/4, $0x335c0041
DATA ·ewmC+1404(SB)/4, $0x335c0041
DATA ·ewmC+1408(SB)/4, $0x3779434a // ta5
DATA ·ewmC+1412(SB)/4, $0x3779434a
DATA ·ewmC+1416(SB)/4, $0x3779434a
DATA ·ewmC+1420(SB)/4, $0x3779434a
DATA ·ewmC+1424(SB)/4, $0x3779434a
DATA ·ewmC+1428(SB)/4, $0x3779434a
DATA ·ewmC+1432(SB)/4, $0x3779434a
DATA ·ewmC+1436(SB)/4, $0x3779434a
DATA ·ewmC+1440(SB)/4, $0x3a270ded // ta3
DATA ·ewmC+1444(SB)/4, $0x3a270ded
DATA ·ewmC+1448(SB)/4, $0x3a270ded
DATA ·ewmC+1452(SB)/4, $0x3a270ded
DATA ·ewmC+1456(SB)/4, $0x3a270ded
DATA ·ewmC+1460(SB)/4, $0x3a270ded
DATA ·ewmC+1464(SB)/4, $0x3a270ded
DATA ·ewmC+1468(SB)/4, $0x3a270ded
DATA ·ewmC+1472(SB)/4, $0x3ba059dc // ta1
DATA ·ewmC+1476(SB)/4, $0x3ba059dc
DATA ·ewmC+1480(SB)/4, $0x3ba059dc
DATA ·ewmC+1484(SB)/4, $0x3ba059dc
DATA ·ewmC+1488(SB)/4, $0x3ba059dc
DATA ·ewmC+1492(SB)/4, $0x3ba059dc
DATA ·ewmC+1496(SB)/4, $0x3ba059dc
DATA ·ewmC+1500(SB)/4, $0x3ba059dc
DATA ·ewmC+1504(SB)/4, $0x35a0d3d8 // tb6
DATA ·ewmC+1508(SB)/4, $0x35a0d3d8
DATA ·ewmC+1512(SB)/4, $0x35a0d3d8
DATA ·ewmC+1516(SB)/4, $0x35a0d3d8
DATA ·ewmC+1520(SB)/4, $0x35a0d3d8
DATA ·ewmC+1524(SB)/4, $0x35a0d3d8
DATA ·ewmC+1528(SB)/4, $0x35a0d3d8
DATA ·ewmC+1532(SB)/4, $0x35a0d3d8
DATA ·ewmC+1536(SB)/4, $0x38f895d6 // tb4
DATA ·ewmC+1540(SB)/4, $0x38f895d6
DATA ·ewmC+1544(SB)/4, $0x38f895d6
DATA ·ewmC+1548(SB)/4, $0x38f895d6
DATA ·ewmC+1552(SB)/4, $0x38f895d6
DATA ·ewmC+1556(SB)/4, $0x38f895d6
DATA ·ewmC+1560(SB)/4, $0x38f895d6
DATA ·ewmC+1564(SB)/4, $0x38f895d6
DATA ·ewmC+1568(SB)/4, $0x3b14aa05 // tb2
DATA ·ewmC+1572(SB)/4, $0x3b14aa05
DATA ·ewmC+1576(SB)/4, $0x3b14aa05
DATA ·ewmC+1580(SB)/4, $0x3b14aa05
DATA ·ewmC+1584(SB)/4, $0x3b14aa05
DATA ·ewmC+1588(SB)/4, $0x3b14aa05
DATA ·ewmC+1592(SB)/4, $0x3b14aa05
DATA ·ewmC+1596(SB)/4, $0x3b14aa05
DATA ·ewmC+1600(SB)/4, $0x3ba059dd // tb0
DATA ·ewmC+1604(SB)/4, $0x3ba059dd
DATA ·ewmC+1608(SB)/4, $0x3ba059dd
DATA ·ewmC+1612(SB)/4, $0x3ba059dd
DATA ·ewmC+1616(SB)/4, $0x3ba059dd
DATA ·ewmC+1620(SB)/4, $0x3ba059dd
DATA ·ewmC+1624(SB)/4, $0x3ba059dd
DATA ·ewmC+1628(SB)/4, $0x3ba059dd
DATA ·ewmC+1632(SB)/4, $0x42ac0000 // ehi: 86, the bound of EXPN2's range |x| <= 86
DATA ·ewmC+1636(SB)/4, $0x42ac0000
DATA ·ewmC+1640(SB)/4, $0x42ac0000
DATA ·ewmC+1644(SB)/4, $0x42ac0000
DATA ·ewmC+1648(SB)/4, $0x42ac0000
DATA ·ewmC+1652(SB)/4, $0x42ac0000
DATA ·ewmC+1656(SB)/4, $0x42ac0000
DATA ·ewmC+1660(SB)/4, $0x42ac0000
GLOBL ·ewmC(SB), RODATA|NOPTR, $1664

#define C_log2e ·ewmC+0(SB)
#define C_negln2hi ·ewmC+32(SB)
#define C_negln2lo ·ewmC+64(SB)
#define C_p0 ·ewmC+96(SB)
#define C_p1 ·ewmC+128(SB)
#define C_p2 ·ewmC+160(SB)
#define C_p3 ·ewmC+192(SB)
#define C_p4 ·ewmC+224(SB)
#define C_p5 ·ewmC+256(SB)
#define C_one ·ewmC+288(SB)
#define C_lo ·ewmC+320(SB)
#define C_hi ·ewmC+352(SB)
#define C_bias ·ewmC+384(SB)
#define C_sign ·ewmC+416(SB)
#define C_abs ·ewmC+448(SB)
#define C_negtwo ·ewmC+480(SB)
#define C_quarter ·ewmC+512(SB)
#define C_t9 ·ewmC+544(SB)
#define C_t7 ·ewmC+576(SB)
#define C_t5 ·ewmC+608(SB)
#define C_t3 ·ewmC+640(SB)
#define C_sqrt2m1 ·ewmC+704(SB)
#define C_half ·ewmC+736(SB)
#define C_negone ·ewmC+768(SB)
#define C_l8 ·ewmC+800(SB)
#define C_l7 ·ewmC+832(SB)
#define C_l6 ·ewmC+864(SB)
#define C_l5 ·ewmC+896(SB)
#define C_l4 ·ewmC+928(SB)
#define C_l3 ·ewmC+960(SB)
#define C_l2 ·ewmC+992(SB)
#define C_l1 ·ewmC+1024(SB)
#define C_l0 ·ewmC+1056(SB)
#define C_ln2lo ·ewmC+1088(SB)
#define C_neghalf ·ewmC+1120(SB)
#define C_ln2hi ·ewmC+1152(SB)
#define C_zero ·ewmC+1184(SB)
#define C_neginf ·ewmC+672(SB)
#define C_tneg9 ·ewmC+1216(SB)
#define C_tpos9 ·ewmC+1248(SB)
#define C_ta13 ·ewmC+1280(SB)
#define C_ta11 ·ewmC+1312(SB)
#define C_ta9 ·ewmC+1344(SB)
#define C_ta7 ·ewmC+1376(SB)
#define C_ta5 ·ewmC+1408(SB)
#define C_ta3 ·ewmC+1440(SB)
#define C_ta1 ·ewmC+1472(SB)
#define C_tb6 ·ewmC+1504(SB)
#define C_tb4 ·ewmC+1536(SB)
#define C_tb2 ·ewmC+1568(SB)
#define C_tb0 ·ewmC+1600(SB)
#define C_ehi ·ewmC+1632(SB)

// EXPV sets Y2 = exp(Y0), as expGo computes it, clobbering Y0, Y1 and
// Y3; Y13 and Y14 hold the clamps. The reduction and the polynomial use
// fused multiply-adds, as expGo's fma32 does. A NaN in Y0 survives the clamps
// (it is their second source) and gives NaN. 2^k is applied as two
// normal powers of two, so the result overflows to +Inf and underflows
// through the subnormals as the multiplications round.
#define EXPV \
	VMAXPS Y0, Y13, Y0; \
	VMINPS Y0, Y14, Y0; \
	VMULPS C_log2e, Y0, Y1; \
	VROUNDPS $0, Y1, Y1; \
	VFMADD231PS C_negln2hi, Y1, Y0; \
	VFMADD231PS C_negln2lo, Y1, Y0; \
	VMOVUPS C_p0, Y2; \
	VFMADD213PS C_p1, Y0, Y2; \
	VFMADD213PS C_p2, Y0, Y2; \
	VFMADD213PS C_p3, Y0, Y2; \
	VFMADD213PS C_p4, Y0, Y2; \
	VFMADD213PS C_p5, Y0, Y2; \
	VMULPS Y0, Y0, Y3; \
	VFMADD213PS Y0, Y3, Y2; \
	VADDPS C_one, Y2, Y2; \
	VCVTPS2DQ Y1, Y1; \
	VPSRAD $1, Y1, Y3; \
	VPSUBD Y3, Y1, Y1; \
	VPADDD C_bias, Y3, Y3; \
	VPADDD C_bias, Y1, Y1; \
	VPSLLD $23, Y3, Y3; \
	VPSLLD $23, Y1, Y1; \
	VMULPS Y3, Y2, Y2; \
	VMULPS Y1, Y2, Y2

// EXPN2 sets p = exp(x) and p2 = exp(x2) for |x|, |x2| <= 86,
// where the result is normal, clobbering x, k and t (and x2, k2, t2):
// EXPV's reduction and polynomial, with 2^k applied by adding k to the
// exponent field, which is EXPV's two exact products on that range.
#define EXPN2(x, k, p, t, x2, k2, p2, t2) \
	VMULPS C_log2e, x, k; \
	VMULPS C_log2e, x2, k2; \
	VROUNDPS $0, k, k; \
	VROUNDPS $0, k2, k2; \
	VFMADD231PS C_negln2hi, k, x; \
	VFMADD231PS C_negln2hi, k2, x2; \
	VFMADD231PS C_negln2lo, k, x; \
	VFMADD231PS C_negln2lo, k2, x2; \
	VMOVUPS C_p0, p; \
	VMOVUPS p, p2; \
	VFMADD213PS C_p1, x, p; \
	VFMADD213PS C_p1, x2, p2; \
	VFMADD213PS C_p2, x, p; \
	VFMADD213PS C_p2, x2, p2; \
	VFMADD213PS C_p3, x, p; \
	VFMADD213PS C_p3, x2, p2; \
	VFMADD213PS C_p4, x, p; \
	VFMADD213PS C_p4, x2, p2; \
	VFMADD213PS C_p5, x, p; \
	VFMADD213PS C_p5, x2, p2; \
	VMULPS x, x, t; \
	VMULPS x2, x2, t2; \
	VFMADD213PS x, t, p; \
	VFMADD213PS x2, t2, p2; \
	VADDPS C_one, p, p; \
	VADDPS C_one, p2, p2; \
	VCVTPS2DQ k, k; \
	VCVTPS2DQ k2, k2; \
	VPSLLD $23, k, k; \
	VPSLLD $23, k2, k2; \
	VPADDD k, p, p; \
	VPADDD k2, p2, p2

// TANHV sets p = tanh(x) as tanhGo computes it, clobbering x, s and q;
// Y13 and Y14 hold the clamps -9 and 9 (a NaN survives them, being
// their second source). s = x², p = x·P(s)/Q(s), P of degree 6 and Q
// of degree 3 by Horner's rule in fused multiply-adds.
#define TANHV(x, s, p, q) \
	VMAXPS x, Y13, x; \
	VMINPS x, Y14, x; \
	VMULPS x, x, s; \
	VMOVUPS C_ta13, p; \
	VMOVUPS C_tb6, q; \
	VFMADD213PS C_ta11, s, p; \
	VFMADD213PS C_tb4, s, q; \
	VFMADD213PS C_ta9, s, p; \
	VFMADD213PS C_tb2, s, q; \
	VFMADD213PS C_ta7, s, p; \
	VFMADD213PS C_tb0, s, q; \
	VFMADD213PS C_ta5, s, p; \
	VFMADD213PS C_ta3, s, p; \
	VFMADD213PS C_ta1, s, p; \
	VDIVPS q, p, p; \
	VMULPS x, p, p

// TANHV2 is TANHV on two vectors, interleaved.
#define TANHV2(x, s, p, q, x2, s2, p2, q2) \
	VMAXPS x, Y13, x; \
	VMAXPS x2, Y13, x2; \
	VMINPS x, Y14, x; \
	VMINPS x2, Y14, x2; \
	VMULPS x, x, s; \
	VMULPS x2, x2, s2; \
	VMOVUPS C_ta13, p; \
	VMOVUPS C_tb6, q; \
	VMOVUPS p, p2; \
	VMOVUPS q, q2; \
	VFMADD213PS C_ta11, s, p; \
	VFMADD213PS C_ta11, s2, p2; \
	VFMADD213PS C_tb4, s, q; \
	VFMADD213PS C_tb4, s2, q2; \
	VFMADD213PS C_ta9, s, p; \
	VFMADD213PS C_ta9, s2, p2; \
	VFMADD213PS C_tb2, s, q; \
	VFMADD213PS C_tb2, s2, q2; \
	VFMADD213PS C_ta7, s, p; \
	VFMADD213PS C_ta7, s2, p2; \
	VFMADD213PS C_tb0, s, q; \
	VFMADD213PS C_tb0, s2, q2; \
	VFMADD213PS C_ta5, s, p; \
	VFMADD213PS C_ta5, s2, p2; \
	VFMADD213PS C_ta3, s, p; \
	VFMADD213PS C_ta3, s2, p2; \
	VFMADD213PS C_ta1, s, p; \
	VFMADD213PS C_ta1, s2, p2; \
	VDIVPS q, p, p; \
	VDIVPS q2, p2, p2; \
	VMULPS x, p, p; \
	VMULPS x2, p2, p2

// func ewMathAVX(op int, d, x *float32, n int)
//
// d[i] = f(x[i]) for i < n, n a multiple of 8, f by op: ewmExp, ewmTanh,
// ewmAbs, ewmNeg, ewmSoftplus (ewmath.go; ewmErf runs erf32s, never here): as the Go twins, bit
// for bit but for exp's fused multiply-adds, which the twin rounds through
// float64 (ewMath32 runs every element here where the CPU has AVX2, so a
// build never mixes the two). d may be x.
TEXT ·ewMathAVX(SB), NOSPLIT, $0-32
	MOVQ op+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ x+16(FP), SI
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JEQ ewm_done
	VMOVUPS C_lo, Y13
	VMOVUPS C_hi, Y14
	CMPQ AX, $1
	JEQ ewm_tanh
	CMPQ AX, $3
	JEQ ewm_abs
	CMPQ AX, $4
	JEQ ewm_neg
	CMPQ AX, $5
	JEQ ewm_softplus

ewm_exp:
	TESTQ $1, CX
	JEQ ewm_exp_pairs
	VMOVUPS (SI), Y0
	EXPV
	VMOVUPS Y2, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX

ewm_exp_pairs:
	SHRQ $1, CX
	JEQ ewm_done

ewm_exp_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y4
	VPAND C_abs, Y0, Y8
	VPAND C_abs, Y4, Y10
	VPCMPGTD C_ehi, Y8, Y8    // |x| > 86 or NaN, as integers
	VPCMPGTD C_ehi, Y10, Y10
	VPOR Y10, Y8, Y8
	VMOVMSKPS Y8, DX
	TESTL DX, DX
	JNE ewm_exp_slow
	EXPN2(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	VMOVUPS Y2, (DI)
	VMOVUPS Y6, 32(DI)

ewm_exp_next:
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNE ewm_exp_loop
	JMP ewm_done

ewm_exp_slow:
	VMOVUPS (SI), Y0
	EXPV
	VMOVUPS Y2, (DI)
	VMOVUPS 32(SI), Y0
	EXPV
	VMOVUPS Y2, 32(DI)
	JMP ewm_exp_next

ewm_tanh:
	VMOVUPS C_tneg9, Y13
	VMOVUPS C_tpos9, Y14
	TESTQ $1, CX
	JEQ ewm_tanh_pairs
	VMOVUPS (SI), Y0
	TANHV(Y0, Y2, Y4, Y6)
	VMOVUPS Y4, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX

ewm_tanh_pairs:
	SHRQ $1, CX
	JEQ ewm_done

ewm_tanh_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	TANHV2(Y0, Y2, Y4, Y6, Y1, Y3, Y5, Y7)
	VMOVUPS Y4, (DI)
	VMOVUPS Y5, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNE ewm_tanh_loop
	JMP ewm_done

ewm_abs:
	VMOVUPS C_abs, Y1

ewm_abs_loop:
	VANDPS (SI), Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE ewm_abs_loop
	JMP ewm_done

ewm_neg:
	VMOVUPS C_sign, Y1

ewm_neg_loop:
	VXORPS (SI), Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE ewm_neg_loop

	JMP ewm_done

ewm_softplus:
	VMOVUPS (SI), Y5
	VANDPS C_abs, Y5, Y0
	VXORPS C_sign, Y0, Y0     // -|x|
	EXPV                      // u = e^-|x|
	VCMPPS $1, C_sqrt2m1, Y2, Y6 // u < √2-1: log1p(u) on u itself
	VADDPS C_negone, Y2, Y7
	VMULPS C_half, Y7, Y7     // else on (u-1)/2, with e = 1
	VBLENDVPS Y6, Y2, Y7, Y7  // x
	VANDNPS C_one, Y6, Y8     // e
	VMULPS Y7, Y7, Y9         // z = x²
	VMOVUPS C_l8, Y10
	VMULPS Y7, Y10, Y10
	VADDPS C_l7, Y10, Y10
	VMULPS Y7, Y10, Y10
	VADDPS C_l6, Y10, Y10
	VMULPS Y7, Y10, Y10
	VADDPS C_l5, Y10, Y10
	VMULPS Y7, Y10, Y10
	VADDPS C_l4, Y10, Y10
	VMULPS Y7, Y10, Y10
	VADDPS C_l3, Y10, Y10
	VMULPS Y7, Y10, Y10
	VADDPS C_l2, Y10, Y10
	VMULPS Y7, Y10, Y10
	VADDPS C_l1, Y10, Y10
	VMULPS Y7, Y10, Y10
	VADDPS C_l0, Y10, Y10
	VMULPS Y7, Y10, Y10
	VMULPS Y9, Y10, Y10       // y = P(x)·x·z
	VMULPS C_ln2lo, Y8, Y11
	VADDPS Y11, Y10, Y10
	VMULPS C_neghalf, Y9, Y11
	VADDPS Y11, Y10, Y10
	VADDPS Y10, Y7, Y7        // x + y
	VMULPS C_ln2hi, Y8, Y11
	VADDPS Y11, Y7, Y7        // log1p(u)
	VXORPS Y11, Y11, Y11
	VMAXPS Y5, Y11, Y11       // max(x, 0), NaN kept
	VADDPS Y7, Y11, Y11
	VMOVUPS Y11, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE ewm_softplus

ewm_done:
	VZEROUPPER
	RET

// func maxNaNAVX(x *float32, n int) (m float32, nan bool)
//
// m is the largest of x[:n] and nan reports a NaN among them (m is then
// unspecified); n is a positive multiple of 8.
TEXT ·maxNaNAVX(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	VMOVUPS C_neginf, Y0
	VMOVUPS Y0, Y5
	VXORPS Y2, Y2, Y2
	VXORPS Y6, Y6, Y6
	TESTQ $1, CX
	JEQ mx_pairs
	VMOVUPS (SI), Y3
	VMAXPS Y3, Y0, Y0
	VCMPPS $3, Y3, Y3, Y2
	ADDQ $32, SI
	DECQ CX

mx_pairs:
	SHRQ $1, CX
	JEQ mx_end

mx_loop:
	VMOVUPS (SI), Y3
	VMOVUPS 32(SI), Y4
	VMAXPS Y3, Y0, Y0
	VMAXPS Y4, Y5, Y5
	VCMPPS $3, Y3, Y3, Y3
	VCMPPS $3, Y4, Y4, Y4
	VORPS Y3, Y2, Y2
	VORPS Y4, Y6, Y6
	ADDQ $64, SI
	DECQ CX
	JNE mx_loop

mx_end:
	VMAXPS Y5, Y0, Y0
	VORPS Y6, Y2, Y2
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	VMOVSS X0, m+16(FP)
	VMOVMSKPS Y2, AX
	TESTL AX, AX
	SETNE nan+20(FP)
	VZEROUPPER
	RET

// func subDivVecAVX(div bool, d, a, b *float32, n int)
//
// d[i] = a[i] - b[i] (or a[i] / b[i] when div) for i < n, n a multiple
// of 8.
TEXT ·subDivVecAVX(SB), NOSPLIT, $0-40
	MOVBQZX div+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ a+16(FP), SI
	MOVQ b+24(FP), DX
	MOVQ n+32(FP), CX
	SHRQ $3, CX
	JEQ sdv_done
	TESTQ AX, AX
	JNE sdv_div

sdv_sub:
	VMOVUPS (SI), Y0
	VSUBPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNE sdv_sub
	JMP sdv_done

sdv_div:
	VMOVUPS (SI), Y0
	VDIVPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNE sdv_div

sdv_done:
	VZEROUPPER
	RET

// func lerpAVX(d, a, b *float32, n int, wa, wb float32)
//
// d[i] = wa*a[i] + wb*b[i] for i < n, n a multiple of 8, each product
// rounded before the sum (lerpGo's bits). d may be a or b.
TEXT ·lerpAVX(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS wa+32(FP), Y14
	VBROADCASTSS wb+36(FP), Y15
	SHRQ $3, CX
	JEQ lerp_done

lerp_loop:
	VMULPS (SI), Y14, Y0
	VMULPS (DX), Y15, Y1
	VADDPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNE lerp_loop

lerp_done:
	VZEROUPPER
	RET

// EXPNZ sets p = exp(x) for |x| <= 86 in zmm registers: EXPN2's steps
// with their constants held in Z4-Z12 and Z15 (ewExpZ loads them, each a
// broadcast of the first lane of its ewmC vector), so each lane's bits
// are EXPN2's. 2^k is applied by VSCALEFPS, which on this range, where
// the result is normal, is exactly EXPN2's addition to the exponent
// field, in one instruction instead of three.
#define EXPNZ(x, k, p, t) \
	VMULPS Z4, x, k; \
	VRNDSCALEPS $0, k, k; \
	VFMADD231PS Z5, k, x; \
	VFMADD231PS Z6, k, x; \
	VMOVAPS Z8, p; \
	VFMADD231PS Z7, x, p; \
	VFMADD213PS Z9, x, p; \
	VFMADD213PS Z10, x, p; \
	VFMADD213PS Z11, x, p; \
	VFMADD213PS Z12, x, p; \
	VMULPS x, x, t; \
	VFMADD213PS x, t, p; \
	VADDPS Z15, p, p; \
	VSCALEFPS k, p, p

// func ewExpZ(d, x *float32, n int)
//
// d[i] = exp(x[i]) for i < n, n a multiple of 32, with AVX-512: the
// bits of ewMathAVX's exp. Four vectors of 16 at a time (then a last
// two) with |x| <= 86 run EXPNZ; a pair with a lane outside (or a NaN)
// runs EXPV, 8 lanes at a time, which clobbers Y0-Y3 only and reads
// Y13-Y14, so the constants in Z4-Z12 and Z15 stay. d may be x.
TEXT ·ewExpZ(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $5, CX
	JEQ ewz_done
	VMOVUPS C_lo, Y13
	VMOVUPS C_hi, Y14
	VBROADCASTSS C_log2e, Z4
	VBROADCASTSS C_negln2hi, Z5
	VBROADCASTSS C_negln2lo, Z6
	VBROADCASTSS C_p0, Z7
	VBROADCASTSS C_p1, Z8
	VBROADCASTSS C_p2, Z9
	VBROADCASTSS C_p3, Z10
	VBROADCASTSS C_p4, Z11
	VBROADCASTSS C_p5, Z12
	VBROADCASTSS C_one, Z15

ewz_loop4:
	CMPQ CX, $2
	JLT ewz_loop
	VMOVUPS (SI), Z16
	VMOVUPS 64(SI), Z20
	VMOVUPS 128(SI), Z24
	VMOVUPS 192(SI), Z28
	VPANDD.BCST C_abs, Z16, Z17
	VPANDD.BCST C_abs, Z20, Z21
	VPANDD.BCST C_abs, Z24, Z25
	VPANDD.BCST C_abs, Z28, Z29
	VPCMPGTD.BCST C_ehi, Z17, K1    // |x| > 86 or NaN, as integers
	VPCMPGTD.BCST C_ehi, Z21, K2
	VPCMPGTD.BCST C_ehi, Z25, K3
	VPCMPGTD.BCST C_ehi, Z29, K4
	KORW K2, K1, K1
	KORW K4, K3, K3
	KORTESTW K3, K1
	JNE ewz_loop
	EXPNZ(Z16, Z17, Z18, Z19)
	EXPNZ(Z20, Z21, Z22, Z23)
	EXPNZ(Z24, Z25, Z26, Z27)
	EXPNZ(Z28, Z29, Z30, Z31)
	VMOVUPS Z18, (DI)
	VMOVUPS Z22, 64(DI)
	VMOVUPS Z26, 128(DI)
	VMOVUPS Z30, 192(DI)
	ADDQ $256, SI
	ADDQ $256, DI
	SUBQ $2, CX
	JNE ewz_loop4
	JMP ewz_done

ewz_loop:
	VMOVUPS (SI), Z16
	VMOVUPS 64(SI), Z20
	VPANDD.BCST C_abs, Z16, Z24
	VPANDD.BCST C_abs, Z20, Z25
	VPCMPGTD.BCST C_ehi, Z24, K1    // |x| > 86 or NaN, as integers
	VPCMPGTD.BCST C_ehi, Z25, K2
	KORTESTW K2, K1
	JNE ewz_slow
	EXPNZ(Z16, Z17, Z18, Z19)
	EXPNZ(Z20, Z21, Z22, Z23)
	VMOVUPS Z18, (DI)
	VMOVUPS Z22, 64(DI)

ewz_next:
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNE ewz_loop4

ewz_done:
	VZEROUPPER
	RET

ewz_slow:
	VMOVUPS (SI), Y0
	EXPV
	VMOVUPS Y2, (DI)
	VMOVUPS 32(SI), Y0
	EXPV
	VMOVUPS Y2, 32(DI)
	VMOVUPS 64(SI), Y0
	EXPV
	VMOVUPS Y2, 64(DI)
	VMOVUPS 96(SI), Y0
	EXPV
	VMOVUPS Y2, 96(DI)
	JMP ewz_next

// TANHZ is TANHV in zmm registers, its constants in Z16-Z28 (tanhZ's
// layout), so each lane's bits are TANHV's.
#define TANHZ(x, s, p, q) \
	VMAXPS x, Z16, x; \
	VMINPS x, Z17, x; \
	VMULPS x, x, s; \
	VMOVAPS Z18, p; \
	VMOVAPS Z25, q; \
	VFMADD213PS Z19, s, p; \
	VFMADD213PS Z26, s, q; \
	VFMADD213PS Z20, s, p; \
	VFMADD213PS Z27, s, q; \
	VFMADD213PS Z21, s, p; \
	VFMADD213PS Z28, s, q; \
	VFMADD213PS Z22, s, p; \
	VFMADD213PS Z23, s, p; \
	VFMADD213PS Z24, s, p; \
	VDIVPS q, p, p; \
	VMULPS x, p, p

// func tanhZ(d, x *float32, n int)
//
// d[i] = tanh(x[i]) for i < n (n a multiple of 16) with AVX-512: TANHV's
// operations on 16 lanes, two vectors a step where n allows. d may be x.
TEXT ·tanhZ(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JEQ tanhz_done
	VBROADCASTSS C_tneg9, Z16
	VBROADCASTSS C_tpos9, Z17
	VBROADCASTSS C_ta13, Z18
	VBROADCASTSS C_ta11, Z19
	VBROADCASTSS C_ta9, Z20
	VBROADCASTSS C_ta7, Z21
	VBROADCASTSS C_ta5, Z22
	VBROADCASTSS C_ta3, Z23
	VBROADCASTSS C_ta1, Z24
	VBROADCASTSS C_tb6, Z25
	VBROADCASTSS C_tb4, Z26
	VBROADCASTSS C_tb2, Z27
	VBROADCASTSS C_tb0, Z28

tanhz_loop2:
	CMPQ CX, $2
	JLT tanhz_loop
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z4
	TANHZ(Z0, Z1, Z2, Z3)
	TANHZ(Z4, Z5, Z6, Z7)
	VMOVUPS Z2, (DI)
	VMOVUPS Z6, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $2, CX
	JNE tanhz_loop2
	JMP tanhz_done

tanhz_loop:
	VMOVUPS (SI), Z0
	TANHZ(Z0, Z1, Z2, Z3)
	VMOVUPS Z2, (DI)

tanhz_done:
	VZEROUPPER
	RET
