// Package ship sends records, as -T ek documents, to a search engine's
// Elasticsearch-compatible bulk API: Elasticsearch, OpenSearch or
// VictoriaLogs (/insert/elasticsearch/_bulk). It is what --ship does.
//
// The flow:
//
//	Add (the capture's goroutine): action line + document appended to the
//	   │  batch being filled; sealed at BatchBytes, BatchDocs, or
//	   │  FlushInterval after its first document (a timer: a quiet live
//	   │  capture still ships within about a second)
//	   ▼
//	packer (one goroutine): gzip at the fastest level, a sequence number
//	   ▼
//	queue: batches oldest first, in memory up to MemoryBytes; past it the
//	   │   oldest in memory are spilled to the spool (SpoolDir), past the
//	   │   spool's SpoolBytes the oldest on disk are dropped, counted
//	   ▼
//	sender (one goroutine, one request at a time, oldest batch first):
//	   POST, then by the answer: 2xx items shipped; 409 already there;
//	   429 and 5xx (for the request or an item) and network errors tried
//	   again, only the documents concerned, after exponential backoff with
//	   jitter and at least Retry-After; other 4xx refused for good and
//	   counted. A batch is removed, from memory and disk, once answered.
//
// Back-pressure: the capture never waits for the network. Add copies the
// document and returns; it waits only when compression and the local
// disk fall two batches behind. However slow or absent the engine, memory
// holds at most MemoryBytes of compressed batches (the one being sent
// included) plus four batches being filled or compressed; the rest goes
// to the spool, and past the spool's bound the oldest data is dropped, so
// what reaches the engine is the most recent. Without a spool the oldest
// batches in memory are dropped instead.
//
// The spool is a directory of one file per batch, the request's body as
// sent, named by sequence number, written to a temporary name and renamed
// (a batch is there whole or not at all), locked against a second
// mcdissect. Batches that an earlier run left there are sent first, in
// order, by the next run. Close sends what is left until its context ends;
// with a spool it stops at the first failed try, and what is unsent waits
// on disk for the next run.
//
// Delivery and IDs. Each document carries host, source (the interface or
// file) and record_id; its action line is create with that _id (IDs:
// host/source/frame/index/time/checksum). A batch is sent again only when its
// answer was not read: the engine may have taken it. Elasticsearch and
// OpenSearch keep one document per _id, so such a resend is answered 409
// for the documents they already hold, counted as Duplicates, and nothing
// is doubled. VictoriaLogs ignores _id (its bulk handler reads the action
// line only to check for "create" or "index"), so there a resend after a
// lost answer stores the record twice; record_id shows it (count_uniq,
// uniq by). An engine stopped gracefully (SIGTERM: VictoriaLogs finishes
// the requests it is serving before it closes) loses no answer, and the
// restart test checks that every record arrives once. An engine killed
// (SIGKILL, a crash) may lose what it had acknowledged but not yet
// written (VictoriaLogs: up to -inmemoryDataFlushInterval, 5 s) and
// cannot be made whole by a sender.
//
// The plain bulk protocol, not go-elasticsearch's esutil.BulkIndexer: the
// indexer's Add blocks once its workers' buffers are full, so with the
// engine unreachable a live capture would stop reading packets (its Add
// stopped returning after one batch); it has no spool and no memory bound,
// and shipping the same records it spent about twice the CPU time and
// allocations. What it would save is the request and the answer's
// parsing (send.go). Bodies are gzipped at the fastest level: about twice
// as fast as the default level, for a body a third larger.
package ship
