'use strict'
// A play-state server for mcdissect's Java samples, built on minecraft-protocol's own
// createServer (offline mode: handshake, login, compression and the configuration state are
// its code). On join it sends what minecraft-protocol's examples send (join game, a position),
// plus health (so that mineflayer spawns); it answers each chat message with a server chat
// line "<name> said: <text>", logs every position the client sends, and after the client's
// fourth position (or 8 s) kicks it with a reason. Packets are filled from minecraft-data's
// definition of the version, so the same code writes every version's packet layout.
//
//   node server.js VERSION PORT LIFETIME_SECONDS [online]
//
// "online": online mode, the session check answered by a local HTTPS stand-in (see
// sessionStub below), so that the connection is encrypted without Mojang's servers.
// MCD_THRESHOLD=N: the compression threshold is N instead of minecraft-protocol's 256 (see
// lowThreshold below).
// MCD_RECIPES=1 (1.20.4 only): on join it also sends declare_recipes with every recipe of
// minecraft-data's list (recipe-list.js), as a vanilla server does: its packet of most fields.
const mc = require('minecraft-protocol')
const nbt = require('prismarine-nbt')
const [version = '1.20.4', portArg = '25600', lifeArg = '40', mode = 'offline'] = process.argv.slice(2)
const log = (...a) => console.error(new Date().toISOString(), '[server]', ...a)
const mcData = require('minecraft-data')(version)

// fill completes a packet's parameters from the version's definition: fields the caller
// does not give get a zero value of their type.
function fill (name, given) {
  const t = mcData.protocol.play.toClient.types['packet_' + name]
  const out = { ...given }
  if (!t || t[0] !== 'container') return out
  for (const f of t[1]) {
    if (!f.name || f.name in out) continue
    const zero = { bool: false, string: '', UUID: '00000000-0000-0000-0000-000000000000', f32: 0, f64: 0, varint: 0, i8: 0, i16: 0, i32: 0, i64: [0, 0], u8: 0 }
    if (typeof f.type === 'string' && f.type in zero) out[f.name] = zero[f.type]
  }
  return out
}

// chat sends a server chat line in the version's form: chat (JSON) before 1.19,
// system_chat (JSON) until 1.20.2, system_chat (NBT) from 1.20.3.
function chat (client, text) {
  const json = JSON.stringify({ text })
  if (mcData.protocol.play.toClient.types.packet_system_chat) {
    const t = mcData.protocol.play.toClient.types.packet_system_chat[1].find(f => f.name === 'content')
    const content = t.type === 'anonymousNbt' ? nbt.comp({ text: nbt.string(text) }) : json
    client.write('system_chat', fill('system_chat', { content, isActionBar: false, type: 1 }))
  } else {
    client.write('chat', fill('chat', { message: json, position: 1, sender: '00000000-0000-0000-0000-000000000000' }))
  }
}

const options = { host: '127.0.0.1', port: Number(portArg), version, 'online-mode': mode === 'online', motd: 'mcdissect play' }
if (mode === 'online') {
  // minecraft-protocol asks the session server (sessionserver.mojang.com, over HTTPS) whether
  // the player joined; every host name resolves to 127.0.0.1 here, where sessionStub answers
  // yes with an offline-style profile. Nothing leaves the machine.
  const https = require('https')
  options.agent = new https.Agent({
    rejectUnauthorized: false, // the stand-in's certificate is self-signed
    lookup: (hostname, opts, cb) => opts && opts.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)
  })
  sessionStub()
}
if (process.env.MCD_THRESHOLD !== undefined) lowThreshold(Number(process.env.MCD_THRESHOLD))
const server = mc.createServer(options)
if (mode === 'online') {
  // the server's RSA key, which opens every session sent to it (samples/NAME.key.pem)
  require('fs').writeFileSync(process.env.MCD_SERVER_KEY || 'server.key.pem', server.serverKey.exportKey('pkcs1-private-pem') + '\n')
}

// lowThreshold makes the server compress at n bytes, as a vanilla server with
// network-compression-threshold=n does. minecraft-protocol 1.68.0 has no option for it: its
// login step (src/server/login.js) writes Set Compression with 256 right after calling the
// beforeLogin hook, then sets the connection's threshold to 256. The hook here makes that
// packet say n and the connection compress at n; framing and zlib stay minecraft-protocol's.
function lowThreshold (n) {
  options.beforeLogin = (client) => {
    const write = client.write.bind(client)
    client.write = (name, params) => write(name, name === 'compress' ? { ...params, threshold: n } : params)
    Object.defineProperty(client, 'compressionThreshold', {
      configurable: true,
      get: () => client.compressor == null ? -2 : client.compressor.compressionThreshold,
      set: () => client.setCompressionThreshold(n)
    })
    log('compression threshold', n)
  }
}

// sessionStub serves hasJoined on 127.0.0.1:443 with a throwaway self-signed certificate.
function sessionStub () {
  const { execFileSync } = require('child_process')
  const dir = require('fs').mkdtempSync(require('os').tmpdir() + '/mcd-session-')
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=sessionserver.mojang.com', '-days', '1',
    '-keyout', dir + '/key.pem', '-out', dir + '/cert.pem'], { stdio: 'ignore' })
  const fs = require('fs')
  require('https').createServer({ key: fs.readFileSync(dir + '/key.pem'), cert: fs.readFileSync(dir + '/cert.pem') }, (req, res) => {
    const u = new URL(req.url, 'https://x')
    const name = u.searchParams.get('username') || ''
    log('session stub', req.method, u.pathname, 'username=' + name)
    const id = require('minecraft-protocol/src/datatypes/uuid').nameToMcOfflineUUID(name).replace(/-/g, '')
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ id, name, properties: [] }))
  }).listen(443, '127.0.0.1')
}
server.on('listening', () => log(`minecraft-protocol ${require('minecraft-protocol/package.json').version} ${mode} on 127.0.0.1:${portArg}, version ${version}`))
server.on('playerJoin', (client) => {
  log('playerJoin', client.username, client.uuid)
  client.write('login', fill('login', { ...mcData.loginPacket, entityId: 1, maxPlayers: 10 }))
  client.write('position', fill('position', { x: 8.5, y: 70, z: 8.5, yaw: 0, pitch: 0, flags: 0, teleportId: 1 }))
  client.write('update_health', { health: 20, food: 20, foodSaturation: 5 })
  if (process.env.MCD_RECIPES) {
    const recipes = require('./recipe-list')(mcData)
    client.write('declare_recipes', { recipes })
    log('declare_recipes', recipes.length)
  }
  let positions = 0
  const kick = () => { log('kick', client.username); client.end('Kicked by mcdissect: bye ' + client.username) }
  const timer = setTimeout(kick, 8000)
  client.on('packet', (data, meta) => {
    switch (meta.name) {
      case 'chat': case 'chat_message':
        log('chat from', client.username, JSON.stringify(data.message))
        chat(client, client.username + ' said: ' + data.message)
        break
      case 'position': case 'position_look':
        log('position from', client.username, data.x, data.y, data.z)
        if (++positions === 4) { clearTimeout(timer); setTimeout(kick, 300) }
        break
    }
  })
})
server.on('error', (e) => log('error', e.message))
setTimeout(() => { log('lifetime over'); process.exit(0) }, Number(lifeArg) * 1000)
