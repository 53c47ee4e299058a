package capture

import (
	"fmt"
	"io"
)

// InterfaceNames is a shell pipeline that takes the names from -D's
// output (WriteInterfaces), for the completion scripts.
const InterfaceNames = `sed -n 's/^[0-9]*\. \([^ ]*\).*/\1/p'`

// WriteInterfaces writes the interfaces a live capture can use (-D) as
// tshark lists them: "1. eth0", "2. lo (Loopback)".
func WriteInterfaces(w io.Writer) error {
	list, err := Interfaces()
	if err != nil {
		return err
	}
	for i, it := range list {
		fmt.Fprintf(w, "%d. %s", i+1, it.Name)
		if it.Description != "" {
			fmt.Fprintf(w, " (%s)", it.Description)
		}
		fmt.Fprintln(w)
	}
	return nil
}
