// Package slp dissects Minecraft Java Edition's TCP protocol: the modern
// VarInt-framed handshake, status, ping and login packets (with
// compression, and encryption when a key log opens it), the configuration
// and play states through dissect/java, and the legacy pre-1.7 pings (FE,
// FE 01, FE 01 FA + MC|PingHost) and their FF kick replies.
//
// It follows seed 002 (a write-up of real captures) and the wiki.vg
// "Server List Ping", "Protocol" and "Protocol version numbers" pages. It
// imports the standard library and the dissect core only.
//
// # How the analyzer calls it
//
//	c := slp.NewConn()                       // one per TCP connection
//	c := slp.NewConnWith(slp.Options{Keys: k, Version: "1.20.4"}) // --keylog, a version for mid-way sessions
//	f := c.Frame(dir, buf, afterGap)         // the reassembler's framer
//	c.Decode(p, pdu, meta)                   // each PDU Frame delimited, in capture order
//	c.DecodeCut(p, pdu, wireLen, meta)       // a PDU left incomplete at the end of a stream
//	c.Close()                                // at the end of the connection
//	slp.Detect(firstClientBytes)             // yes / no / need more, for recognition on any port
//
// Frame answers FrameOK(len), FrameNeedMore(len when known) or FrameLost
// with a reason. FrameOK consumes the PDU: Frame keeps its own copy of the
// connection state (handshake next state, Set Compression, Encryption
// Response), advanced as it consumes, so framing can run ahead of decoding.
// Decode keeps another copy advanced by the same rules. Both assume each
// direction's PDUs come in stream order and the two directions in capture
// order (what a server can only send after reading a client packet is
// framed after it).
//
// Framing and decoding may therefore run on two Conns from NewConn, on two
// goroutines: Frame on one, Decode, DecodeCut and Close on the other, with
// the same PDUs in the same order. Decode reads nothing Frame writes. It
// needs no word of gaps either: after a gap framing gives the direction
// up (so nothing more of it is decoded), or, on a direction's very first
// bytes, goes on from a recognisable start that decoding reads the same
// way. TestSplitFrameDecode replays every SLP sample both ways.
//
// FrameLost cases: a packet length over the protocol's 2097151 (a VarInt
// of more than 3 bytes), a VarInt longer than 5 bytes (80 80 80 80 80 01),
// bytes after the client's Encryption Response when no key opens them
// (both directions are encrypted from there), and bytes after a gap in the
// login state, or in an encrypted session, or in the configuration and
// play states of a session whose handshake was not seen: there is no
// boundary to prove, so the rest of that direction is reported undissected
// by the reassembler. In the status state, and in the configuration and
// play states once the version is known, framing resynchronises instead
// (resync.go: FrameSkip to the next frame it can prove, a packet the
// version's data reads whole). A direction's very first bytes after a gap are accepted when
// they are recognisably the start of the conversation (a capture that only
// missed the SYN): a client handshake Detect says yes to, or the server's
// first bytes once the client's were accepted.
//
// Legacy framing. A vanilla server (LegacyQueryHandler) tells the three
// legacy pings apart by what its first read returns: FE alone, FE 01 alone,
// or FE 01 FA and a plugin message. Framing does the same with the bytes
// buffered: FE or FE 01 with nothing after them are complete pings (those
// clients send nothing more and wait for the kick); FE 01 FA waits for the
// whole MC|PingHost message and frames ping and message as one PDU. Should
// the FA arrive in a later segment, it is framed on its own as a Legacy
// Plugin Message. FE 01 00 is not legacy: it is a modern handshake of
// length 254. On the server side FF is a legacy kick when the client was
// legacy; when the client side was not seen, FF is a kick unless it reads
// as a modern status response (length, 00, JSON length, '{').
//
// Requests and responses. A status request, a ping and a legacy ping are
// marked Pending (dissect.PDU.Pending) until their response arrives; the
// response then adds slp.response_in to the held request and gets
// slp.request_in and slp.time (status, legacy) or slp.ping.request_in and
// slp.rtt (pong), from the capture times in Meta. The pipeline must not
// reuse a Pending PDU; Close releases every one still waiting, and GiveUp
// one the pipeline must output before its response (which then still
// links back to it).
//
// The little-endian port rule. Seed 002 saw clients write the handshake's
// port little-endian (servers ignore it). With p the port read big-endian
// and q the same bytes read little-endian (q != p), the expert note
// slp.handshake.server_port.little_endian is added when q is the port the
// connection really reached (Meta.Server) and p is not, or when q is the
// default 25565 and p is neither 25565 nor the port reached.
//
// The status JSON is shown twice: slp.status.json is the text as received,
// and slp.status beside it is the JSON as a tree whose nodes cover their
// values' bytes in the text (a small bounded scanner: depth 64, 16384
// values). JSON that does not parse is an error naming its offset and the
// text stays. Raw control characters inside strings are read leniently and
// flagged. Forge's packed "d" string (Forge 1.18.1+) is unpacked: 15 bits
// per character after a two-character byte count, then truncated flag, mod
// count, mods with their channels, and non-mod channels; the mods and
// channels it holds are shown as generated nodes.
//
// Login is decoded field by field: Login Start (name, UUID as the
// handshake's protocol version has it), Encryption Request and Response,
// Set Compression, Login Success, login plugin messages and cookies. After
// Set Compression frames carry a data length; a compressed body is
// inflated with a cap (the declared length, at most 2 MiB; a declared
// length over the protocol's 8 MiB is flagged) and laid after the frame's
// bytes (dissect.Cursor.Derive, slp.inflated), where the packet is read as
// an uncompressed one's. Framing and decoding follow the state through
// compressed packets alike: where a packet may change it (any login
// packet: Login Success, Login Acknowledged, Set Compression, Encryption
// Response; 1.8's play Set Compression) they inflate its first bytes for
// its ID, and no more (dissect/inflate). Configuration and play packets
// are dissected by dissect/java with the data of the handshake's protocol
// number (the closest version's when it has none, flagged), each
// direction's state followed through Finish Configuration and Start
// Configuration.
//
// # Encryption
//
// After the client's Encryption Response both directions are AES/CFB8
// (key = IV = the shared secret). With Options.Keys (a KeyLog: lines
// MC_SHARED_SECRET <encrypted secret> <secret>, or the server's PEM RSA
// key, which decrypts the encrypted secret), framing and decoding each
// keep a cipher per direction: a frame is decrypted to find its length,
// and the decoded PDU has the ciphertext (slp.encrypted) and the
// plaintext laid after it (slp.decrypted), read as a plain session's, with
// the secret (slp.decrypted.secret, Sensitive: --redact masks it). Without
// a key the rest of each direction is lost to framing, and the reason
// names the encrypted secret a key log line would need.
//
// # Sessions picked up mid-way
//
// With Options.Version, a connection whose handshake the capture lacks is
// read from its first bytes as configuration or play packets of that
// version (Options.State), each direction's compression guessed from its
// first packet, with a note (slp.java.midway). Without it such a
// connection is resynchronised as a status ping is, or left undissected.
package slp
