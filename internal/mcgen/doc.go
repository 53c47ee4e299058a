// Package mcgen generates large, deterministic, protocol-correct captures of
// Minecraft server traffic for benchmarks and tests (cmd/mcgen is its
// command line).
//
// Generate(out, Config{Size, Seed}) writes a pcap (Ethernet, µs
// timestamps) of three protocols mixed by bytes (default Query 20%, SLP
// 40%, Classic 40%):
//
//   - Query (UDP 25565): handshake, token, then one to four basic or full
//     stat requests and their responses, against four servers whose player
//     lists change as the capture runs.
//   - Server List Ping (TCP 25565): handshake (protocol 767), status
//     request, status response JSON (player sample, § colour codes, on
//     three of the four servers a favicon of 6-8 KB), ping and pong; one
//     connection in five logs in instead: Login Start, Set Compression
//     (threshold 256), then the compressed format through Login Success
//     and the configuration state, the larger Registry Data frames zlib
//     compressed.
//   - Classic (TCP 25565, protocol 7, on two other servers): player and
//     server identification, the level (a real gzip of a 64x32x64 to
//     128x64x128 world) in 1024-byte chunks, finalize, spawns, then
//     hundreds to thousands of bursts of positions, relative moves,
//     orientation, chat, pings, block changes, joins and leaves, and now
//     and then a disconnect.
//
// Conns (default 200) conversations are open at once; each step one of them,
// picked at random, sends its next burst, and the clock moves by tens of
// microseconds (now and then milliseconds). TCP bursts are cut into
// segments of at most 1448 bytes, sometimes shorter or split in two, a
// streaming side sometimes keeps part of a PDU for its next segment, and
// a few segments are reordered, retransmitted whole, or have their tail
// retransmitted. Every connection starts with a three-way handshake and
// ends with FINs (3% with an RST). A tenth of the clients are IPv6.
//
// The same Config always writes the same bytes: the random source is a
// seeded splitmix64, the costly assets (favicons, levels, compressed
// frames) are made once from a fixed seed, and nothing depends on the wall
// clock or on map order.
//
// Frames are written by a fast writer of this package, byte-identical to
// internal/capgen's (Config.Capgen selects capgen; TestSameAsCapgen
// compares them): about 800 MB/s in memory without allocation per packet.
package mcgen
