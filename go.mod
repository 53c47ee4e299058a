module github.com/mcdissect/mcdissect

go 1.25

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/google/gopacket v1.1.19
	github.com/spf13/pflag v1.1.0
	golang.org/x/net v0.0.0-20190620200207-3b0461eec859
	golang.org/x/sys v0.0.0-20190412213103-97732733099d
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
