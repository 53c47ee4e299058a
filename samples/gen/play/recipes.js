// recipes.js writes a 1.20.4 Declare Recipes packet (its ID and body, no
// length) to the file named by its argument: every recipe of
// minecraft-data's 1.20.4 recipe list (recipe-list.js), made by
// minecraft-protocol's own serializer.
// It is dissect/java's test of the packet of most fields a vanilla server sends
// (TestRealSizedPacket); samples/large/play-1-20-4-recipes.pcap carries it
// in a session.
//
//   node recipes.js /tmp/recipes.bin
//   gzip -9n </tmp/recipes.bin >../../../dissect/java/testdata/declare-recipes-765.bin.gz
const mc = require('minecraft-protocol')
const mcData = require('minecraft-data')('1.20.4')

const recipes = require('./recipe-list')(mcData)
const ser = mc.createSerializer({ state: 'play', isServer: true, version: '1.20.4' })
const buf = ser.createPacketBuffer({ name: 'declare_recipes', params: { recipes } })
require('fs').writeFileSync(process.argv[2] || 'recipes.bin', buf)
console.log('recipes', recipes.length, 'bytes', buf.length)
