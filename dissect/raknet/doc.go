// Package raknet dissects RakNet's offline (unconnected) ping and pong: the
// status ping of Minecraft: Bedrock Edition servers, which often share a
// host, and sometimes a port, with Java Edition's Query.
//
// An unconnected ping (ID 0x01, or 0x02 "open connections only") is the
// client's time, the offline-message magic and the client's GUID; the pong
// (ID 0x1c) echoes the time and carries the server's GUID, the magic and a
// length-prefixed string, which Bedrock servers fill with
// "MCPE;motd;protocol;version;online;max;serverId;subMotd;gamemode;
// gamemodeNumeric;portV4;portV6;" (Education Edition says "MCEE"). The
// string is shown whole and split into its fields.
//
// The decoder is pure and never panics; a short datagram yields every field
// up to the cut and a truncated or malformed field.
package raknet
