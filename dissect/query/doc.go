// Package query dissects Minecraft Query, the UDP status protocol modelled
// on GameSpy4 (UT3): handshake request and response, basic stat request and
// response, full stat request and response. Its fields and expert items are
// in Registry (fields.go); the list of filter names is testdata/fields.txt.
//
// The analyzer calls three things:
//
//	Decode(p, data, wireLen, dir)  fills p with one datagram's tree, Message, Info, Dir.
//	                               dir may be dissect.DirUnknown: FE FD first means
//	                               client to server.
//	Looks(data) (dir, ok)          the heuristic for datagrams on any UDP port
//	                               (see Looks for the shapes it accepts).
//	NewTracker() *Tracker          conversation analysis (tracker.go):
//	  t.Observe(meta, p)           after Decode, in capture order; sets p.Pending on
//	                               requests and clears it when their response comes
//	  t.Expire(packetTime)         gives up on requests older than ResponseWindow (5 s)
//	  t.GiveUp(p, why)             lets go of a request the pipeline must output before
//	                               its response, saying why; the response still links
//	                               back to it
//	  t.Close()                    at the end of the capture: gives up on all of them
//
// What the tree shows, beyond the seed documents (000, 001, 003):
//
//   - Request type 0 is classified by its exact length on the wire (wireLen,
//     so a snap-length cut does not change it): 11 bytes basic, 15 full, any
//     other length "Stat Request" with query.request.length (vanilla answers
//     it with the basic stat). Padding other than 00 00 00 00 gets a note
//     (minequery sends ff ff ff 01).
//   - A type 0 response is basic or full by its shape (statKind): the full
//     stat starts with the GameSpy3 split header.
//   - The full stat's constants are GameSpy3 structure and shown as such:
//     "splitnum\0", a packet-number byte (0x80 = last packet), one more byte;
//     then, after the key/value section's empty key, a section byte 01, the
//     field name "player_\0" and a start byte 00. Geyser sends "GeyserMC\0"
//     80 00 and keys in hash order: query.split.unexpected shows the bytes.
//   - Every pair is a query.kv node keyed by its key (filter
//     query.kv.hostname; its value is the pair's value) with query.key and
//     the value as children; the value of a well-known key is the plain
//     field (query.motd for hostname, query.gametype, query.game_id,
//     query.version, query.plugins, query.map, query.numplayers,
//     query.maxplayers, query.hostport.text with a generated query.hostport,
//     query.hostip), any other key's is query.value.
//   - Numbers sent as text get a generated parsed child
//     (query.numplayers.value, query.maxplayers.value, query.hostport);
//     numplayers is compared with the names listed.
//   - A MOTD with NUL bytes (MC-221987, MC-231035) is recognised by a
//     heuristic (pairs in fullstat.go, motdEnd in query.go) and shown whole,
//     with query.motd.nul, instead of as fake keys.
//   - Session IDs get their masked value (& 0x0F0F0F0F); bits outside the
//     mask get a warning.
//   - The basic stat's hostport is little-endian: the node carries
//     dissect.FlagLittleEndian (renderers say so); ports above 32767 are
//     unsigned. msh's extra 00 after the port shows as query.trailing after
//     an empty hostip.
//
// Decode allocates the Info string, plus expert messages and names of
// unknown keys when there are any; with a reused PDU nothing else.
package query
