'use strict'
// Runs minecraft-protocol's own createServer (third-party implementation: handshake, status,
// legacy 0xFE ping, login, compression and encryption are all its code). Only the settings,
// the tiny icon and the lifetime are ours.
//
//   node server.js MODE PORT LIFETIME_SECONDS
//   MODE: status        status + legacy ping answers (offline mode, nobody logs in)
//         login-offline offline-mode login; on join sends the login (join game) packet,
//                       a system chat message, then waits for the client to leave
//         login-online  online-mode login: Encryption Request is sent; the session-server
//                       check is pointed at 127.0.0.1:443 (nothing listens) so it fails locally
//         status-log    as status, and logs each connection's status response and pong
//                       (client port, JSON bytes): the server's side of the truth
//         status-hold   as status-log, but status responses wait until the server gets
//                       SIGUSR1 (or 10 s after the first), as a busy server keeps pings
//                       waiting: a capture can start while every ping waits for its answer
const mc = require('minecraft-protocol')
const https = require('https')
const zlib = require('zlib')

const [mode = 'status', portArg = '25566', lifeArg = '30'] = process.argv.slice(2)
const port = Number(portArg)
const HOST = '127.0.0.1'

// --- a 64x64 RGBA PNG (the size the vanilla client expects), built here so the status JSON carries a real favicon data URI ---
function crc32 (buf) {
  let c; let crc = 0xffffffff
  for (const b of buf) {
    c = (crc ^ b) & 0xff
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    crc = (crc >>> 8) ^ c
  }
  return (crc ^ 0xffffffff) >>> 0
}
function chunk (type, data) {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td))
  return Buffer.concat([len, td, crc])
}
function png64 () {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(64, 0); ihdr.writeUInt32BE(64, 4)
  ihdr[8] = 8; ihdr[9] = 6 // 8-bit RGBA
  const rows = []
  for (let y = 0; y < 64; y++) {
    rows.push(0)
    for (let x = 0; x < 64; x++) rows.push(...(((x >> 3) + (y >> 3)) & 1 ? [0x3c, 0x8d, 0x2f, 0xff] : [0x8b, 0x5a, 0x2b, 0xff])) // 8x8 checkerboard: small once deflated
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))])
}
const favicon = 'data:image/png;base64,' + png64().toString('base64')

// Keep the online-mode session check on loopback: every https request resolves to 127.0.0.1.
const loopbackAgent = new https.Agent({
  lookup: (hostname, opts, cb) => opts && opts.all
    ? cb(null, [{ address: '127.0.0.1', family: 4 }])
    : cb(null, '127.0.0.1', 4)
})

const options = {
  host: HOST,
  port,
  version: '1.21.1',
  motd: 'mcdissect §atest§r server',
  maxPlayers: 100,
  favicon,
  'online-mode': mode === 'login-online',
  agent: loopbackAgent,
  hideErrors: false
}
// status-log, status-hold: minecraft-protocol's beforePing hook, which only logs (and, for
// status-hold, holds the answer back); the response itself is the one minecraft-protocol built.
if (mode === 'status-log' || mode === 'status-hold') {
  let held = mode === 'status-hold' ? [] : null // answers waiting for SIGUSR1
  const release = () => { const h = held; held = null; if (h) { log('releasing', h.length, 'held status responses'); h.forEach(f => f()) } }
  if (held) process.on('SIGUSR1', release)
  options.beforePing = (response, client, answer) => {
    const addr = client.socket.remoteAddress + ':' + client.socket.remotePort
    const send = () => {
      log(addr, 'status response', Buffer.byteLength(JSON.stringify(response)), 'JSON bytes')
      answer(null, response)
    }
    if (held) {
      if (!held.length) setTimeout(release, 10000) // never hold a ping longer than this
      held.push(send)
    } else send()
    client.once('ping', (p) => log(addr, 'ping -> pong'))
  }
}
const server = mc.createServer(options)
const log = (...a) => console.error(new Date().toISOString(), '[server]', ...a)

server.on('listening', () => log(`minecraft-protocol ${require('minecraft-protocol/package.json').version} ${mode} on ${HOST}:${port}, version ${options.version}`))
server.on('connection', (client) => {
  const addr = client.socket.remoteAddress + ':' + client.socket.remotePort
  client.on('state', (s, old) => log(addr, 'state', old, '->', s))
  client.on('end', (reason) => log(addr, 'end', reason || ''))
  client.on('error', (e) => log(addr, 'error', e.message))
})
server.on('login', (client) => log('login', client.username, client.uuid))
server.on('playerJoin', (client) => {
  log('playerJoin', client.username)
  const mcData = require('minecraft-data')(server.version)
  client.write('login', { ...mcData.loginPacket, entityId: 1, maxPlayers: server.maxPlayers })
  client.write('system_chat', { content: require('prismarine-nbt').comp({ text: require('prismarine-nbt').string('Hello mcdissect') }), isActionBar: false })
})
server.on('error', (e) => log('error', e.message))

setTimeout(() => {
  log('lifetime over, closing')
  setTimeout(() => process.exit(0), 500)
  try { server.close() } catch (e) { log('close:', e.message) }
}, Number(lifeArg) * 1000)
