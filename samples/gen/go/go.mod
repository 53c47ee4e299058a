module mcdissect/samples/gen

go 1.26

require (
	github.com/Tnze/go-mc v1.20.2
	github.com/mcstatus-io/mcutil/v4 v4.0.1
)

require github.com/google/uuid v1.3.0 // indirect
