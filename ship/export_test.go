package ship

import (
	"os"
	"testing"
)

// The real engine's harness (vlogs_test.go), for the tests of package
// ship_test.

func StartVLogs(t *testing.T) *vlogs                { return startVLogs(t) }
func (v *vlogs) BulkURL() string                    { return v.bulkURL() }
func (v *vlogs) Stop(sig os.Signal)                 { v.stop(sig) }
func (v *vlogs) Start()                             { v.start() }
func (v *vlogs) Query(q string) []map[string]string { return v.query(q) }
