package conformance

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// archiveSHA256 is the archive's digest as testdata/README.md gives it.
const archiveSHA256 = "efee1e41d170b8e110b78ef13ba5b8c9defd709598ae859ded09f49eeca05961"

func TestArchiveDigest(t *testing.T) {
	b, err := os.ReadFile(archiveFile)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != archiveSHA256 {
		t.Errorf("%s: sha256 %s, want %s", archiveFile, got, archiveSHA256)
	}
	notice, err := os.ReadFile("testdata/README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(notice), archiveSHA256) {
		t.Errorf("testdata/README.md does not give the archive's sha256 %s", archiveSHA256)
	}
}

func TestREADMEIsCurrent(t *testing.T) {
	want, err := readExpectations()
	if err != nil {
		t.Fatal(err)
	}
	const readme = "../../README.md"
	doc, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Splice(doc, want)
	if err != nil {
		t.Fatalf("%s: %v", readme, err)
	}
	if string(got) != string(doc) {
		t.Errorf("%s: the conformance count is stale: run go generate ./internal/conformance", readme)
	}
}

func TestParseExpectations(t *testing.T) {
	good := "# comment\n\ntest_a pass\ntest_b refused: node \"n\" (X): op X is not supported\n"
	res, err := ParseExpectations(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || !res["test_a"].Pass || res["test_b"].Pass || res["test_b"].Reason != `node "n" (X): op X is not supported` {
		t.Errorf("got %+v", res)
	}
	if got := string(FormatExpectations(res)); !strings.HasSuffix(got, "test_a pass\ntest_b refused: node \"n\" (X): op X is not supported\n") {
		t.Errorf("FormatExpectations gave\n%s", got)
	}
	for _, bad := range []string{
		"test_a\n",
		"test_a passes\n",
		"test_a refused: \n",
		"test_b pass\ntest_a pass\n",
		"test_a pass\ntest_a pass\n",
	} {
		if _, err := ParseExpectations(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseExpectations(%q) succeeded", bad)
		}
	}
}
