'use strict'
// A mineflayer bot for mcdissect's Java samples: it joins, says two chat lines, walks 3 blocks
// east in three steps (position packets through mineflayer's own connection, since the stand-in
// server sends no chunks for its physics to move in), and logs what the server says and why
// it was kicked.
//
//   node bot.js VERSION PORT [USERNAME]
const mineflayer = require('mineflayer')
const [version = '1.20.4', portArg = '25600', username = 'flayer'] = process.argv.slice(2)
const log = (...a) => console.log(new Date().toISOString(), '[bot]', ...a)
const bot = mineflayer.createBot({ host: '127.0.0.1', port: Number(portArg), username, version, auth: 'offline', physicsEnabled: false })
// The shared secret, for the key log: minecraft-protocol makes it in its encryption step and
// hands it to setEncryption; the RSA-encrypted copy goes out in encryption_begin.
let encSecret = null
const write = bot._client.write.bind(bot._client)
bot._client.write = (name, params) => {
  if (name === 'encryption_begin' && bot._client.state === 'login') encSecret = params.sharedSecret
  return write(name, params)
}
const setEncryption = bot._client.setEncryption.bind(bot._client)
bot._client.setEncryption = (secret) => {
  log('MC_SHARED_SECRET ' + (encSecret ? encSecret.toString('hex') : '?') + ' ' + secret.toString('hex'))
  return setEncryption(secret)
}
bot.on('login', () => log(`mineflayer ${require('mineflayer/package.json').version} login as ${bot.username}, version ${bot.version}`))
bot.once('spawn', async () => {
  log('spawn at', bot.entity.position.toString())
  const wait = (ms) => new Promise(resolve => setTimeout(resolve, ms))
  bot.chat('hello from mineflayer')
  await wait(300)
  bot.chat('what a nice day')
  await wait(300)
  const p = bot.entity.position
  const def = require('minecraft-data')(bot.version).protocol.play.toServer.types.packet_position[1]
  for (let k = 1; k <= 4; k++) {
    const pos = { x: p.x + k, y: p.y, z: p.z, onGround: true }
    if (def.some(f => f.name === 'flags')) pos.flags = { onGround: true, hasHorizontalCollision: false }
    bot._client.write('position', pos)
    log('position sent', pos.x, pos.y, pos.z)
    await wait(200)
  }
})
bot._client.on('declare_recipes', (p) => log('declare_recipes', p.recipes.length))
bot.on('message', (m) => log('message', JSON.stringify(m.toString())))
bot.on('kicked', (r) => log('kicked', JSON.stringify(r)))
bot.on('end', (r) => { log('end', r); process.exit(0) })
bot.on('error', (e) => log('error', e.message))
setTimeout(() => { log('timeout'); process.exit(1) }, 20000)
