module github.com/mcdissect/mcdissect

go 1.26.8

require (
	github.com/google/gopacket v1.1.19 // indirect
	github.com/spf13/pflag v1.1.0 // indirect
)
