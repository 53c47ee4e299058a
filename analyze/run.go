package analyze

import (
	"errors"
	"fmt"
	"io"
)

// Run feeds every packet of src to a and finishes it. A capture file that
// ends in the middle of a packet record is not an error: what came before
// is dissected, and the returned warning says where the file was cut.
func Run(src Source, a *Analyzer) (warning error, err error) {
	for {
		data, ci, link, rerr := src.Next()
		if rerr != nil {
			if rerr == io.EOF {
				break
			}
			if errors.Is(rerr, io.ErrUnexpectedEOF) {
				warning = fmt.Errorf("the capture file is cut short in the middle of the packet after frame %d; dissected up to there", a.frame)
				break
			}
			warning = fmt.Errorf("the capture file is damaged after frame %d (%v); dissected up to there", a.frame, rerr)
			break
		}
		if perr := a.Packet(data, ci, link); perr != nil {
			break
		}
	}
	return warning, a.Finish()
}
