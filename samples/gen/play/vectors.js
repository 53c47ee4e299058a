'use strict'
// Writes minecraft-protocol's serialisation of every configuration and play packet of every
// version it supports, each with the least values its definition allows (zero numbers,
// empty strings and lists, absent options, switches on their zero case), for mcdissect's
// dissect/slp TestSerializerVectors: a second implementation's bytes (minecraft-protocol's
// ProtoDef compiler) read back by mcdissect's interpreter, packet by packet.
//
//   node vectors.js ../../../dissect/java/testdata/nmp-vectors.json.gz
//
// Each packet is written twice: with the least values, and "rich": numbers 1, booleans true,
// strings "a", options present, lists of one element, optional NBT present, so that the other
// branches of switches and options are read too. A packet whose values minecraft-protocol
// refuses to write is listed with its error instead of bytes (the test skips it).
const zlib = require('zlib')
const fs = require('fs')
const mc = require('minecraft-protocol')
const { createSerializer } = require('minecraft-protocol/src/transforms/serializer')
const states = require('minecraft-protocol/src/states')

const out = process.argv[2] || 'vectors.json.gz'

// minimal builds the least value of a ProtoDef type; types are the version's named types,
// obj the container being built (for switches that compare to a field written before it).
let rich = false

function minimal (t, types, parents, depth = 0) {
  if (depth > 40) throw new Error('too deep')
  const one = rich ? 1 : 0
  if (typeof t === 'string') {
    switch (t) {
      case 'varint': case 'varlong': case 'i8': case 'u8': case 'i16': case 'u16': case 'i32': case 'u32': case 'f32': case 'f64': return one
      case 'i64': case 'u64': return [0, one]
      case 'bool': return rich
      case 'string': case 'pstring': return rich ? 'a' : ''
      case 'UUID': return '00000000-0000-0000-0000-00000000000' + one
      case 'restBuffer': return Buffer.alloc(one)
      case 'void': return undefined
      case 'nbt': case 'anonymousNbt': return { type: 'compound', name: '', value: rich ? { text: { type: 'string', value: 'a' } } : {} }
      case 'optionalNbt': case 'anonOptionalNbt': return rich ? { type: 'compound', name: '', value: { text: { type: 'string', value: 'a' } } } : undefined
      case 'compressedNbt': return undefined
      case 'lpVec3': return { x: 0, y: 0, z: 0 }
    }
    if (!(t in types)) throw new Error('no type ' + t)
    if (types[t] === 'native') throw new Error('native ' + t)
    return minimal(types[t], types, parents, depth + 1)
  }
  const [name, opt] = t
  switch (name) {
    case 'container': {
      const o = {}
      const ps = [o, ...parents]
      for (const f of opt) {
        const v = minimal(f.type, types, ps, depth + 1)
        if (f.anon) { if (v && typeof v === 'object') Object.assign(o, v) } else o[f.name] = v
      }
      return o
    }
    case 'array': {
      const n = typeof opt.count === 'number' ? opt.count : (rich ? 1 : 0)
      return Array.from({ length: n }, () => minimal(opt.type, types, parents, depth + 1))
    }
    case 'buffer': return Buffer.alloc(typeof opt.count === 'number' ? opt.count : one) // a count field is written as given: one too
    case 'pstring': return rich ? 'a' : ''
    case 'option': return rich ? minimal(opt, types, parents, depth + 1) : undefined
    case 'mapper': {
      const keys = Object.keys(opt.mappings)
      const zero = keys.find(k => Number(k) === (rich ? 1 : 0))
      return opt.mappings[zero !== undefined ? zero : keys[0]]
    }
    case 'bitfield': { const o = {}; for (const p of opt) o[p.name] = one; return o }
    case 'bitflags': return {}
    case 'switch': {
      let path = opt.compareTo; let level = 0
      while (path.startsWith('../')) { path = path.slice(3); level++ }
      const [head, ...rest] = path.split('/')
      let v = parents[level] ? parents[level][head] : undefined
      for (const r of rest) v = v && typeof v === 'object' ? v[r] : v
      if (v === undefined || v === null) v = 0
      const key = typeof v === 'boolean' ? String(v) : String(v)
      const c = key in opt.fields ? opt.fields[key] : (opt.default || 'void')
      return minimal(c, types, parents, depth + 1)
    }
    case 'entityMetadataLoop': return []
    case 'topBitSetTerminatedArray': return [minimal(opt.type, types, parents, depth + 1)]
    case 'registryEntryHolder': return { [opt.baseName]: one }
    case 'registryEntryHolderSet': return rich ? { [opt.otherwise.name]: [1] } : { [opt.otherwise.name]: [] }
    case 'count': return one
  }
  // a parametrised named type
  if (types[name] && types[name] !== 'native') {
    const sub = JSON.parse(JSON.stringify(types[name]).replace(/"\$compareTo"/g, JSON.stringify(opt.compareTo)))
    return minimal(sub, types, parents, depth + 1)
  }
  throw new Error('unknown ' + name)
}

const vectors = []
for (const version of mc.supportedVersions) {
  const data = require('minecraft-data')(version)
  const proto = data.protocol
  for (const [st, key] of [['configuration', states.CONFIGURATION], ['play', states.PLAY]]) {
    if (!proto[st]) continue
    for (const [dir, isServer] of [['toClient', true], ['toServer', false]]) {
      const types = { ...proto.types, ...proto[st][dir].types }
      const mapping = proto[st][dir].types.packet[1][0].type[1].mappings
      const typeOf = proto[st][dir].types.packet[1][1].type[1].fields // packet name -> its type
      let ser
      try { ser = createSerializer({ state: key, isServer, version }) } catch (e) { continue }
      for (const [id, name] of Object.entries(mapping)) {
        for (const r of [false, true]) {
          rich = r
          const v = { version, protocol: data.version.version, state: st, dir, id: Number(id), name, rich: r }
          try {
            const params = minimal(typeOf[name], types, [])
            v.hex = ser.createPacketBuffer({ name, params: params || {} }).toString('hex')
          } catch (e) {
            v.error = String(e.message).split('\n')[0].slice(0, 200)
          }
          vectors.push(v)
        }
      }
    }
  }
}
fs.writeFileSync(out, zlib.gzipSync(JSON.stringify({ minecraftProtocol: require('minecraft-protocol/package.json').version, vectors })))
const ok = vectors.filter(v => v.hex).length
console.log(`${vectors.length} packets of ${mc.supportedVersions.length} versions, ${ok} written, ${vectors.length - ok} refused`)
