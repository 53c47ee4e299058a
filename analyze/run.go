package analyze

import (
	"errors"
	"fmt"
	"io"

	"github.com/mcdissect/mcdissect/capture"
)

// Run feeds every packet of src to a and finishes it. A capture file that
// ends in the middle of a packet record is not an error: what came before
// is dissected, and the returned warning says where the file was cut. A
// live capture that fails is an error, after what came before is
// dissected.
func Run(src Source, a *Analyzer) (warning error, err error) {
	var readErr error
	for {
		p, rerr := src.Next()
		if rerr != nil {
			switch {
			case rerr == io.EOF:
			case errors.Is(rerr, io.ErrUnexpectedEOF):
				warning = fmt.Errorf("the capture file is cut short in the middle of the packet after frame %d; dissected up to there", a.frame)
			case errors.Is(rerr, capture.ErrCut):
				warning = fmt.Errorf("the capture file is damaged after frame %d (%v); dissected up to there", a.frame, rerr)
			default:
				readErr = rerr
			}
			break
		}
		if perr := a.Packet(p.Data, p.Info, p.LinkType); perr != nil {
			break
		}
	}
	err = a.Finish()
	if readErr != nil {
		err = readErr
	}
	return warning, err
}
