// Package java dissects Minecraft Java Edition's configuration and play
// states, every version, from minecraft-data's protocol definitions
// (dissect/java/mcdata): dissect/slp frames a Java connection, follows its
// handshake and login, and hands each configuration or play packet's body
// here. It imports the standard library and the dissect core only.
//
// # Data to a fast form
//
// A version's protocol.json describes packets in ProtoDef: containers,
// switches, arrays, options, bitfields, bitflags, mappers, strings and
// buffers, and natives the project implements itself (VarInt, VarLong,
// UUID, NBT in its network forms, optional NBT, 1.7's gzip'd NBT, entity
// metadata loops, top-bit-terminated arrays, registry entry holders and
// holder sets, lpVec3). ForProtocol and ForName compile a version once, on
// first use, into a graph of typ (compile.go): switch comparisons resolved
// to value slots of their container (../ paths and bitflag flags
// included), mapper names to numbers, parametrised types ($compareTo)
// substituted, recursive types cut into cycles. The walk (walk.go) reads
// bytes with dissect.Cursor and never looks at JSON. A native the data
// names and this package does not know compiles to an "unknown native
// type" expert item that takes the rest of the packet, never a silent stop
// (TestNativeTypes lists every type name of every version).
//
// # Limits
//
// Counts (arrays, strings, buffers, NBT arrays and lists, holder sets) are
// checked against the bytes the packet has on the wire before anything is
// read or allocated: more than the wire has is malformed, more than the
// capture has is truncated (fits). Arrays whose elements may take no byte
// are capped at 65536, types nest at most 64 deep at run time and NBT 512
// (Java's own limit). An array of bytes is one node.
//
// # Field names
//
// Every node has a registered field (fields.go). A packet's own fields are
// mc.<state>.<packet>.<field> (state "play" or "config", the packet and
// field names minecraft-data's, camelCase turned to snake_case:
// mc.play.keep_alive.keep_alive_id); fields inside a named type used by
// several packets are named after the type, mc.java.<type>.<field>
// (mc.java.position.x, mc.java.slot.item_id); array elements are <array>.entry;
// NBT tags are keyed fields mc.nbt.<tag type>.<tag name>. A name the data
// gives several types (a switch whose cases differ, a field that changed
// between versions) keeps the plain name for the type the newest release
// gives it (a snapshot never decides), and takes "_<type>" for the others
// ("_int", "_string", "_none", ...); the plain name filters and -e's the
// others too (dissect.Field.Alts), so a filter written for one version
// finds the field in all. FillFields makes this table over every version
// when the data file is generated, so names are stable and known without
// compiling anything. The fields are registered on first use, or when a look-up or a
// listing asks for them (dissect.Lazy). Explanations are hand-written for
// the common packets (keep-alive, chat, position, chunk data, disconnect,
// plugin messages; explain.go) and generated from the name and type for
// the rest.
//
// # What a PDU says
//
// Decode sets Message to the packet's name ("Keep alive", "System chat",
// "Chunk data") and Info to it plus what people look for (info.go): chat
// and system messages as plain text (JSON or NBT components flattened),
// disconnect reasons, positions, keep-alive IDs, chunk coordinates, the
// plugin channel and the brand. A Lite PDU (no tree) walks only packets
// whose Info shows fields; InfoFits tells dissect/slp whether an inflated
// head of a compressed packet holds them. The packet's state transitions
// are Transition's: Finish Configuration moves a direction to play, Start
// Configuration and its acknowledgement back to configuration.
package java
