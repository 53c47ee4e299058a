'use strict'
// Drives third-party clients for mcdissect's sample captures. Each call is the library's
// public API with default settings except where noted (SRV look-ups switched off; we only
// talk to 127.0.0.1).
//
//   node client.js CLIENT HOST PORT [N]
const [which, host = '127.0.0.1', portArg = '25565', nArg = '1'] = process.argv.slice(2)
const port = Number(portArg)
const out = (label, v) => console.log(label + ': ' + JSON.stringify(v, (k, x) => typeof x === 'bigint' ? x.toString() : x))

async function main () {
  switch (which) {
    // ---- minecraft-server-util 5.4.4 ----
    case 'msu-query-basic': {
      const u = require('minecraft-server-util')
      return out(which, await u.queryBasic(host, port, { enableSRV: false, timeout: 5000 }))
    }
    case 'msu-query-full': {
      const u = require('minecraft-server-util')
      return out(which, await u.queryFull(host, port, { enableSRV: false, timeout: 5000 }))
    }
    case 'msu-status': {
      const u = require('minecraft-server-util')
      return out(which, await u.status(host, port, { enableSRV: false, timeout: 5000 }))
    }
    case 'msu-status-many': { // N concurrent status pings
      const u = require('minecraft-server-util')
      const n = Number(nArg)
      const res = await Promise.allSettled(Array.from({ length: n }, () => u.status(host, port, { enableSRV: false, timeout: 10000 })))
      const bad = res.filter(r => r.status !== 'fulfilled')
      bad.forEach(r => console.error(which, r.reason && r.reason.message))
      console.log(`${which}: ${n} concurrent, ${n - bad.length} ok, ${bad.length} failed`)
      if (bad.length) process.exitCode = 1
      return
    }
    case 'msu-status-legacy': { // FE 01
      const u = require('minecraft-server-util')
      return out(which, await u.statusLegacy(host, port, { enableSRV: false, timeout: 5000 }))
    }
    case 'msu-status-fe': { // FE
      const u = require('minecraft-server-util')
      return out(which, await u.statusFE(host, port, { enableSRV: false, timeout: 5000 }))
    }
    case 'msu-status-fe01': { // FE 01
      const u = require('minecraft-server-util')
      return out(which, await u.statusFE01(host, port, { enableSRV: false, timeout: 5000 }))
    }
    case 'msu-status-fe01fa': { // FE 01 FA MC|PingHost
      const u = require('minecraft-server-util')
      return out(which, await u.statusFE01FA(host, port, { enableSRV: false, timeout: 5000 }))
    }
    // ---- gamedig 5.3.3 (type minecraft: TCP status + UDP GameSpy4 query + UDP Bedrock ping, in parallel) ----
    case 'gamedig': {
      const { GameDig } = await import('gamedig')
      return out(which, await GameDig.query({ type: 'minecraft', host, port, givenPortOnly: true, maxRetries: 1 }))
    }
    // ---- mcquery 1.0.3 ----
    case 'mcquery-basic':
    case 'mcquery-full': {
      const Query = require('mcquery')
      const q = new Query(host, port)
      await q.connect()
      const r = await new Promise((resolve, reject) => {
        const cb = (err, res) => err ? reject(err) : resolve(res)
        if (which === 'mcquery-basic') q.basic_stat(cb); else q.full_stat(cb)
      })
      q.close()
      return out(which, r)
    }
    // ---- craftping 3.3.1 ----
    case 'craftping-query-basic':
    case 'craftping-query-full': {
      const { QueryClient } = await import('craftping')
      const c = new QueryClient()
      const r = which === 'craftping-query-basic'
        ? await c.queryBasic(host, port, AbortSignal.timeout(5000))
        : await c.queryFull(host, port, AbortSignal.timeout(5000))
      await c.close()
      return out(which, r)
    }
    case 'craftping-status':
    case 'craftping-legacy-post14':
    case 'craftping-legacy-pre14':
    case 'craftping-legacy-universal': {
      const { JavaPingClient } = await import('craftping')
      const c = new JavaPingClient()
      const opts = { signal: AbortSignal.timeout(5000) }
      const r = which === 'craftping-status' ? await c.ping(host, port, opts)
        : which === 'craftping-legacy-post14' ? await c.pingLegacyPost14(host, port, opts)
          : which === 'craftping-legacy-pre14' ? await c.pingLegacyPre14(host, port, opts)
            : await c.pingLegacyUniversal(host, port, opts)
      return out(which, r)
    }
    // ---- minecraft-protocol 1.54.0 ----
    case 'nmp-ping': {
      const mc = require('minecraft-protocol')
      return out(which, await mc.ping({ host, port, closeTimeout: 5000 }))
    }
    case 'nmp-ping-many': { // N concurrent nmp pings; one line each: the local port and what came back
      const mc = require('minecraft-protocol')
      const net = require('net')
      const n = Number(nArg)
      const one = (i) => {
        const rec = { i, port: null, responseBytes: null, pong: false }
        // nmp's own connect option (tcp_dns.js does the same net.connect), so the local port is known
        const connect = (client) => {
          const s = net.connect(port, host)
          s.once('connect', () => { rec.port = s.localPort })
          client.on('server_info', (p) => { rec.responseBytes = Buffer.byteLength(p.response) })
          client.on('ping', () => { rec.pong = true })
          client.setSocket(s)
        }
        return mc.ping({ host, port, closeTimeout: 15000, connect })
          .then((d) => `${which} #${i} port ${rec.port}: status response ${rec.responseBytes} JSON bytes (version ${d.version.name}/${d.version.protocol}, players ${d.players.online}/${d.players.max}), pong ${rec.pong ? 'received' : 'not received'}`,
            (e) => { throw new Error(`${which} #${i} port ${rec.port}: ${e && e.message}`) })
      }
      const res = await Promise.allSettled(Array.from({ length: n }, (_, i) => one(i)))
      res.forEach(r => r.status === 'fulfilled' ? console.log(r.value) : console.error(r.reason.message))
      const bad = res.filter(r => r.status !== 'fulfilled').length
      console.log(`${which}: ${n} concurrent, ${n - bad} ok, ${bad} failed`)
      if (bad) process.exitCode = 1
      return
    }
    case 'nmp-login': { // offline-mode client, leaves ~1.5 s after the join game (login) packet
      const mc = require('minecraft-protocol')
      const client = mc.createClient({ host, port, username: 'mcdissect', auth: 'offline', version: '1.21.1' })
      await new Promise((resolve, reject) => {
        const t = setTimeout(() => { client.end('timeout'); resolve() }, 20000)
        client.on('connect', () => console.error('[client] connected'))
        client.on('state', (s, old) => console.error('[client] state', old, '->', s))
        client.on('error', (e) => console.error('[client] error', e.message))
        client.on('login', (p) => {
          console.log(which + ': joined, entityId ' + p.entityId)
          setTimeout(() => { client.end('mcdissect done'); }, 1500)
        })
        client.on('system_chat', (p) => console.log(which + ': system_chat ' + JSON.stringify(p.content)))
        client.on('disconnect', (p) => console.log(which + ': disconnect ' + JSON.stringify(p.reason)))
        client.on('end', (r) => { clearTimeout(t); console.log(which + ': end ' + (r || '')); resolve() })
      })
      return
    }
    case 'nmp-login-many': { // N offline-mode clients that log in, stay 10 s in the play state (answering keep-alives), then leave
      const mc = require('minecraft-protocol')
      const n = Number(nArg)
      const one = (i) => new Promise((resolve) => {
        const client = mc.createClient({ host, port, username: 'mcdissect' + i, auth: 'offline', version: '1.21.1' })
        const rec = { port: null, keepAlives: 0 }
        client.on('connect', () => { rec.port = client.socket.localPort })
        client.on('keep_alive', () => { rec.keepAlives++ })
        client.on('error', (e) => console.error(`${which} #${i}: error ${e.message}`))
        client.on('login', () => setTimeout(() => client.end('mcdissect done'), 10000))
        client.on('end', () => {
          console.log(`${which} #${i} port ${rec.port}: ${client.username} ${rec.keepAlives} keep-alives answered, end`)
          resolve()
        })
      })
      await Promise.all(Array.from({ length: n }, (_, i) => one(i)))
      return
    }
    default:
      throw new Error('unknown client ' + which)
  }
}

main().then(() => setTimeout(() => process.exit(process.exitCode || 0), 200))
  .catch(e => { console.error(which + ' failed:', e && e.message); process.exit(1) })
