// Command mcutil-client drives github.com/mcstatus-io/mcutil/v4 (a third-party client) for
// mcdissect's sample captures. Every call uses the library's default options, as a user
// would, so what goes on the wire is the library's own choice (session IDs, protocol version).
//
//	mcutil-client [-n N] query-basic|query-full|status|legacy HOST PORT
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/mcstatus-io/mcutil/v4/query"
	"github.com/mcstatus-io/mcutil/v4/status"
)

func main() {
	n := flag.Int("n", 1, "number of concurrent requests")
	flag.Parse()
	if flag.NArg() != 3 {
		fmt.Fprintln(os.Stderr, "usage: mcutil-client [-n N] query-basic|query-full|status|legacy HOST PORT")
		os.Exit(2)
	}
	what, host := flag.Arg(0), flag.Arg(1)
	p, err := strconv.Atoi(flag.Arg(2))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	port := uint16(p)

	run := func() (any, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		switch what {
		case "query-basic":
			return query.Basic(ctx, host, port)
		case "query-full":
			return query.Full(ctx, host, port)
		case "status":
			return status.Modern(ctx, host, port)
		case "legacy":
			return status.Legacy(ctx, host, port)
		}
		return nil, fmt.Errorf("unknown request %q", what)
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	for i := 0; i < *n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res, err := run()
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed++
				fmt.Fprintf(os.Stderr, "mcutil %s #%d: error: %v\n", what, i, err)
				return
			}
			if *n == 1 {
				b, _ := json.Marshal(res)
				fmt.Printf("mcutil %s: %s\n", what, b)
			}
		}(i)
	}
	wg.Wait()
	if *n > 1 {
		fmt.Printf("mcutil %s: %d requests, %d failed\n", what, *n, failed)
	}
	if failed > 0 {
		os.Exit(1)
	}
}
