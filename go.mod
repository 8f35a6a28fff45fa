module github.com/lintel-ml/lintel

go 1.26.0

require (
	github.com/ebitengine/purego v0.11.3
	github.com/google/go-cmp v0.7.0
	github.com/x448/float16 v0.8.4
	github.com/yalue/onnxruntime_go v1.27.0
	golang.org/x/image v0.47.0
	golang.org/x/sys v0.49.0
	google.golang.org/protobuf v1.36.12
)

require golang.org/x/text v0.43.0 // indirect
