module github.com/mcdissect/mcdissect

go 1.25.0

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/gopacket/gopacket v1.7.7
	github.com/spf13/pflag v1.1.0
	golang.org/x/net v0.55.0
	golang.org/x/sys v0.45.0
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
