//go:build ignore

// websrv is the web server of bench/webmix: on 127.0.0.1:80 it serves
// /big (SIZE bytes) to the downloads and answers /heartbeat.jsp as a
// Classic server list does (the play URL), and exits after its lifetime.
//
//	go run websrv.go -size 200000000 -lifetime 60s
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"math/rand"
	"net/http"
	"time"
)

func main() {
	size := flag.Int("size", 200<<20, "bytes of /big")
	life := flag.Duration("lifetime", time.Minute, "exit after this long")
	addr := flag.String("listen", "127.0.0.1:80", "address")
	flag.Parse()
	big := make([]byte, *size)
	rand.New(rand.NewSource(1)).Read(big)
	start := time.Now()
	http.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "big", start, bytes.NewReader(big))
	})
	n := 0
	http.HandleFunc("/heartbeat.jsp", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		n++
		log.Printf("heartbeat %d %s from %s name=%q salt=%q", n, r.Method, r.RemoteAddr, r.Form.Get("name"), r.Form.Get("salt"))
		fmt.Fprintf(w, "http://127.0.0.1/classic/play/%08x", n)
	})
	time.AfterFunc(*life, func() { log.Fatal("lifetime over") })
	log.Fatal(http.ListenAndServe(*addr, nil))
}
