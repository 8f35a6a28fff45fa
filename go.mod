module github.com/lintel-ml/lintel

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/x448/float16 v0.8.4
	google.golang.org/protobuf v1.36.12
)
