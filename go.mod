module github.com/lintel-ml/lintel

go 1.26.0

require (
	github.com/ebitengine/purego v0.11.3
	github.com/google/go-cmp v0.7.0
	github.com/viterin/vek v0.4.3
	github.com/x448/float16 v0.8.4
	github.com/yalue/onnxruntime_go v1.27.0
	golang.org/x/image v0.47.0
	golang.org/x/sys v0.49.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/chewxy/math32 v1.10.1 // indirect
	github.com/viterin/partial v1.1.0 // indirect
	golang.org/x/exp v0.0.0-20230817173708-d852ddb80c63 // indirect
	golang.org/x/text v0.43.0 // indirect
)
