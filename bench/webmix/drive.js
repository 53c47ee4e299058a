'use strict'
// The Minecraft side of bench/webmix, with real client libraries (from
// samples/gen/node: NODE_PATH=samples/gen/node/node_modules):
// minecraft-server-util status pings every 20 ms, Query full stat every
// 100 ms and legacy pings every 500 ms against 127.0.0.1:25565; gamedig
// every 2 s; a Classic heartbeat (node's http client, from 127.0.0.2, as a
// Classic server posting to its list) every second, GET and POST in turn.
//
//   node drive.js SECONDS
const u = require('minecraft-server-util')
const http = require('http')
const secs = Number(process.argv[2] || '30')
const host = '127.0.0.1'
const port = 25565
const counts = {}
const opts = { enableSRV: false, timeout: 5000 }
function every (name, ms, fn) {
  counts[name] = { ok: 0, failed: 0 }
  const t = setInterval(() => {
    fn().then(() => counts[name].ok++, e => { counts[name].failed++; console.error(name, e && e.message) })
  }, ms)
  return t
}
function heartbeat (i) {
  const params = `port=25565&max=20&name=Web+mix+${i}&public=True&version=7&salt=wo6kVAHjxoJcInKx&users=${i % 5}`
  const post = i % 2 === 0
  return new Promise((resolve, reject) => {
    const req = http.request({ host, port: 80, localAddress: '127.0.0.2', method: post ? 'POST' : 'GET',
      path: post ? '/heartbeat.jsp' : '/heartbeat.jsp?' + params,
      headers: post ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': params.length } : {},
      agent: false }, res => { res.resume(); res.on('end', resolve) })
    req.on('error', reject)
    if (post) req.write(params)
    req.end()
  })
}
let hb = 0
const timers = [
  every('status', 20, () => u.status(host, port, opts)),
  every('query', 100, () => u.queryFull(host, port, opts)),
  every('legacy', 500, () => u.statusLegacy(host, port, opts)),
  every('gamedig', 2000, () => { const { GameDig } = require('gamedig'); return GameDig.query({ type: 'minecraft', host, port, givenPortOnly: true, maxRetries: 1 }) }),
  every('heartbeat', 1000, () => heartbeat(hb++))
]
setTimeout(() => {
  timers.forEach(clearInterval)
  setTimeout(() => { console.log(JSON.stringify(counts)); process.exit(0) }, 3000)
}, secs * 1000)
