// Package classic dissects the Minecraft Classic protocol (seed 004): the
// fixed-length packets of a game connection, both directions, with the
// Classic Protocol Extension (CPE), and the HTTP heartbeat a server sends
// to the list server, with name verification.
//
// How the analyzer uses it:
//
//   - Detect(firstC2S) / DetectHeartbeat(firstC2S) pick a TCP connection
//     (yes / no / need more bytes).
//   - One Session per capture (NewSession; Session.SetSalt for
//     --classic-salt) holds the salts heartbeats expose, because a heartbeat
//     and the players' connections are different TCP connections.
//   - A game connection: c := NewConn(session); the reassembler calls
//     c.Frame(dir, buf, afterGap) for each direction in capture order and
//     c.Decode(pdu, data, meta) for each PDU it delimits (meta.Dir,
//     meta.Frame, meta.Server "ip:port" for the key check). DecodeCut takes a
//     wire length for a PDU cut by a gap or the connection's end (decoded
//     as far as its bytes go, the field they end in Truncated). Framing
//     and decoding may also run on two Conns made alike, one calling Frame and the other Decode on the same
//     PDUs in the same order: the decoding one is then told of each gap by
//     c.Gap(dir), in order with the PDUs.
//   - A heartbeat connection: h := NewHeartbeat(session); h.Frame, h.Decode,
//     and h.FrameAtEnd(dir, rest) when a direction ends (an HTTP/0.9
//     response or a body delimited by the close is complete only then);
//     h.DecodeCut for a message cut short whose length the framer knew
//     (a Content-Length body). A request whose head is cut short has no
//     known length: the pipeline keeps it as undissected bytes (masked
//     whole by --redact). Parameters are read however many there are; a
//     chunked form body is de-chunked first (its parameters are generated
//     nodes under classic.heartbeat.dechunked, as a pair may lie in two
//     chunks). After a gap, or without the SYN, framing resumes at a
//     heartbeat request line or a response's status line (Frame).
//
// Framing: a packet's length follows from its ID and direction (0x00 and
// 0x08 differ by direction; 0x00 is 130 bytes for protocol 5 and older),
// widened by the extensions both sides announced: ExtEntityPositions (+6 on
// positions), FastMap (+4 on Level Initialize, and the level is raw deflate
// without the gzip header or the count prefix), ExtendedBlocks (+1 per block
// ID, and chunks whose percent byte is non-zero carry the upper block
// array), EnvMapAppearance v2, BlockDefinitionsExt v2, EnvMapAspect v2,
// CustomModels v2 and ExtendedTextures. CPE packet IDs are framed once the
// client identified as CPE (the unused byte 0x42), as the modern client does;
// a packet of an extension both sides did not announce gets an expert
// warning. An unknown ID loses the direction's framing (FrameLost, naming the
// ID and the stream offset). After a gap the framer resynchronises on the
// first position where three plausible packets follow in a row (see Frame).
//
// Level data: Decode joins the chunks of a level (copying them: at most
// MaxCompressed bytes) and inflates them on Level Finalize, up to X×Y×Z (+4)
// bytes or MaxInflated, whichever is less: a gzip bomb is reported
// (classic.level.bomb), not obeyed. The finalize tree shows the dimensions,
// block count, a count per block type sorted by ID, and the chunks' frames;
// the blocks go to PDU.Objects (Kind "level", "level-<frame>.bin").
//
// Lite (dissect.PDU.Lite, no tree will be read): Message, Info and Dir are
// those of a full decode, but texts only nodes show are not made and a
// level is neither joined nor inflated, so it carries no PDU.Objects: the
// pipeline must not decode Lite when it exports objects.
//
// Secrets: verification keys, heartbeat salts and the expected key carry
// dissect.FlagSensitive for --redact.
package classic
