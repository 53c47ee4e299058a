package mcgen

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"sync"
)

// Word lists for names and texts. Player names are built from two words
// and sometimes digits, at most 16 characters as both protocols require.
var (
	nameHeads = []string{"Swift", "Dark", "Iron", "Red", "Blue", "Lucky", "Silent", "Mega", "Tiny", "Cool",
		"Epic", "Frost", "Shadow", "Golden", "Pixel", "Crafty", "Sneaky", "Happy", "Wild", "Noble", "xX", "Mr", "Lil", "Super"}
	nameTails = []string{"Fox", "Miner", "Creeper", "Steve", "Alex", "Wolf", "Builder", "Knight", "Dragon", "Gamer",
		"Panda", "Ninja", "Pig", "Bee", "Slime", "Enderman", "Golem", "Archer", "Digger", "Wizard", "Cat", "Owl"}
	motds = []string{
		"A Minecraft Server",
		"Welcome to Blockville SMP!",
		"Survival | Economy | Towns",
		"Vanilla+ survival, est. 2019",
		"Friendly community server - join us!",
		"Hardcore mode: one life only",
		"Creative plots and minigames",
		"Skyblock, Factions, Prison",
	}
	slpMotds = []string{
		"A Minecraft Server",
		"§aWelcome to §lBlockville§r §7SMP",
		"§6Survival §8| §eEconomy §8| §bTowns",
		"Vanilla+ survival, est. 2019\\nNow on 1.21.1",
		"§c§lHARDCORE§r one life only",
		"Friendly community server - join us!",
	}
	plugins = []string{
		"",
		"Paper on 1.21.1-R0.1-SNAPSHOT: EssentialsX 2.20.1; LuckPerms 5.4.137; WorldEdit 7.3.6",
		"Paper on 1.21.1-R0.1-SNAPSHOT: Vault 1.7.3; Towny 0.100.3.0; dynmap 3.7",
		"CraftBukkit on Bukkit 1.21.1-R0.1-SNAPSHOT",
	}
	chats = []string{
		"hi all", "anyone want to trade diamonds?", "lol", "brb", "gg", "where is spawn?",
		"can someone help me build a house", "nice castle!", "&cwho griefed my farm", "thanks!",
		"the server is laggy today", "meet at 100 64 -200", "ok", "/tpa", "good night everyone",
	}
	classicServers = []string{"Freebuild Classic", "&bClassiCube &fFreebuild", "Blockville Classic", "Zombie Survival", "Lava Survival"}
	classicMotds   = []string{"Welcome! Build anything you like.", "&aNo griefing &f- &ebe nice", "Survive the zombies!", "Type /rules for the rules", "&6Have fun building"}
	registries     = []struct {
		id      string
		entries []string
	}{
		{"minecraft:worldgen/biome", []string{"badlands", "bamboo_jungle", "basalt_deltas", "beach", "birch_forest", "cherry_grove", "cold_ocean",
			"crimson_forest", "dark_forest", "deep_cold_ocean", "deep_dark", "deep_frozen_ocean", "deep_lukewarm_ocean", "deep_ocean", "desert",
			"dripstone_caves", "end_barrens", "end_highlands", "end_midlands", "eroded_badlands", "flower_forest", "forest", "frozen_ocean",
			"frozen_peaks", "frozen_river", "grove", "ice_spikes", "jagged_peaks", "jungle", "lukewarm_ocean", "lush_caves", "mangrove_swamp",
			"meadow", "mushroom_fields", "nether_wastes", "ocean", "old_growth_birch_forest", "old_growth_pine_taiga", "old_growth_spruce_taiga",
			"plains", "river", "savanna", "savanna_plateau", "small_end_islands", "snowy_beach", "snowy_plains", "snowy_slopes", "snowy_taiga",
			"soul_sand_valley", "sparse_jungle", "stony_peaks", "stony_shore", "sunflower_plains", "swamp", "taiga", "the_end", "the_void",
			"warm_ocean", "warped_forest", "windswept_forest", "windswept_gravelly_hills", "windswept_hills", "windswept_savanna", "wooded_badlands"}},
		{"minecraft:damage_type", []string{"arrow", "bad_respawn_point", "cactus", "campfire", "cramming", "dragon_breath", "drown", "dry_out",
			"explosion", "fall", "falling_anvil", "falling_block", "falling_stalactite", "fireball", "fireworks", "fly_into_wall", "freeze",
			"generic", "generic_kill", "hot_floor", "in_fire", "in_wall", "indirect_magic", "lava", "lightning_bolt", "magic", "mob_attack",
			"mob_attack_no_aggro", "mob_projectile", "on_fire", "out_of_world", "outside_border", "player_attack", "player_explosion",
			"sonic_boom", "spit", "stalagmite", "starve", "sting", "sweet_berry_bush", "thorns", "thrown", "trident", "unattributed_fireball",
			"wind_charge", "wither", "wither_skull"}},
		{"minecraft:dimension_type", []string{"overworld", "overworld_caves", "the_end", "the_nether"}},
		{"minecraft:chat_type", []string{"chat", "emote_command", "msg_command_incoming", "msg_command_outgoing", "say_command",
			"team_msg_command_incoming", "team_msg_command_outgoing"}},
		{"minecraft:wolf_variant", []string{"ashen", "black", "chestnut", "pale", "rusty", "snowy", "spotted", "striped", "woods"}},
	}
)

// assets are the costly parts of the traffic, made once per process:
// favicons (base64 PNG data URIs), Classic levels (gzip), and the
// configuration-state frames of a login (some zlib-compressed).
type assetSet struct {
	favicons [][]byte // `data:image/png;base64,...`
	levels   []level  // gzip streams with their sizes
	config   [][]byte // server frames after Set Compression, compressed format
	chunks   [][]byte // Chunk Data frames of the play state (play.go), compressed
}

type level struct {
	gz      []byte
	x, y, z int
}

var (
	assetsOnce sync.Once
	theAssets  *assetSet
)

func getAssets() *assetSet {
	assetsOnce.Do(func() { theAssets = makeAssets() })
	return theAssets
}

var (
	bigAssetsOnce sync.Once
	theBigAssets  *assetSet
)

// getBigAssets is getAssets with the big levels of Config.BigLevels.
func getBigAssets() *assetSet {
	bigAssetsOnce.Do(func() { theBigAssets = makeAssets(true) })
	return theBigAssets
}

func makeAssets(big ...bool) *assetSet {
	a := &assetSet{}
	r := &rng{s: 0x6d636765_6e617373} // fixed: assets do not depend on -seed
	for i := 0; i < 3; i++ {
		a.favicons = append(a.favicons, favicon(r, i))
	}
	dims := [][3]int{{64, 32, 64}, {128, 64, 128}, {96, 48, 96}}
	if len(big) > 0 && big[0] {
		dims = [][3]int{{256, 64, 256}, {512, 64, 512}}
	}
	for _, d := range dims {
		a.levels = append(a.levels, makeLevel(r, d[0], d[1], d[2]))
	}
	for _, reg := range registries {
		var body []byte
		body = appendVarInt(body, 0x07) // Registry Data
		body = appendString(body, reg.id)
		body = appendVarInt(body, len(reg.entries))
		for _, e := range reg.entries {
			body = appendString(body, "minecraft:"+e)
			body = append(body, 0) // has data: false (known pack)
		}
		a.config = append(a.config, compressedFrame(nil, body))
	}
	for i := range 16 {
		a.chunks = append(a.chunks, compressedFrame(nil, makeChunk(r, int32(i%4-2), int32(i/4-2))))
	}
	return a
}

// favicon draws a 64x64 server icon: smooth shapes with a little noise,
// a few KB of PNG like real ones.
func favicon(r *rng, kind int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			n := uint8(r.intn(24))
			var c color.NRGBA
			switch kind {
			case 0: // grass block
				if y < 20 {
					c = color.NRGBA{60 + n, 150 + n, 40, 255}
				} else {
					c = color.NRGBA{120 + n, 85 + n/2, 50, 255}
				}
			case 1: // diamond-ish gradient
				c = color.NRGBA{uint8(x * 2), 180 + n, uint8(200 - y), 255}
			default: // creeper-like checker
				if (x/8+y/8)%3 == 0 {
					c = color.NRGBA{20, 60 + n, 20, 255}
				} else {
					c = color.NRGBA{80 + n, 200, 80 + n, 255}
				}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		panic(err) // a bytes.Buffer does not fail
	}
	out := []byte("data:image/png;base64,")
	return base64.StdEncoding.AppendEncode(out, buf.Bytes())
}

// makeLevel builds a Classic level: bedrock, stone with ores, dirt, grass,
// a few trees, then air; gzip of the 4-byte block count and the blocks
// (index (y*z + zz)*x + xx).
func makeLevel(r *rng, x, y, z int) level {
	blocks := make([]byte, 4+x*y*z)
	binary.BigEndian.PutUint32(blocks, uint32(x*y*z))
	b := blocks[4:]
	ground := y / 2
	at := func(xx, yy, zz int) int { return (yy*z+zz)*x + xx }
	for yy := 0; yy < y; yy++ {
		for zz := 0; zz < z; zz++ {
			for xx := 0; xx < x; xx++ {
				var v byte
				switch {
				case yy == 0:
					v = 7 // bedrock
				case yy < ground-3:
					v = 1 // stone
					if r.permille(15) {
						v = byte(14 + r.intn(3)) // gold, iron, coal ore
					} else if r.permille(20) {
						v = 13 // gravel
					}
				case yy < ground:
					v = 3 // dirt
				case yy == ground:
					v = 2 // grass
				}
				b[at(xx, yy, zz)] = v
			}
		}
	}
	for t := x * z / 200; t > 0; t-- { // trees
		tx, tz := r.between(2, x-3), r.between(2, z-3)
		for h := 1; h <= 4 && ground+h < y; h++ {
			b[at(tx, ground+h, tz)] = 17 // log
		}
		for dx := -2; dx <= 2; dx++ {
			for dz := -2; dz <= 2; dz++ {
				if yy := ground + 4; yy < y && (dx != 0 || dz != 0) {
					b[at(tx+dx, yy, tz+dz)] = 18 // leaves
				}
			}
		}
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(blocks)
	zw.Close()
	return level{gz: buf.Bytes(), x: x, y: y, z: z}
}

// compressedFrame appends body (packet ID + data) framed in the compressed
// format of threshold compressionThreshold: VarInt packet length, VarInt
// data length (0: not compressed), then the body or its zlib stream.
func compressedFrame(dst, body []byte) []byte {
	if len(body) < compressionThreshold {
		return plainFrame(dst, body)
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(body)
	zw.Close()
	dl := appendVarInt(nil, len(body))
	dst = appendVarInt(dst, len(dl)+z.Len())
	dst = append(dst, dl...)
	return append(dst, z.Bytes()...)
}

const compressionThreshold = 256

// plainFrame appends a body shorter than the threshold in the compressed
// format: data length 0, the body as it is.
func plainFrame(dst, body []byte) []byte {
	dst = appendVarInt(dst, 1+len(body))
	dst = append(dst, 0)
	return append(dst, body...)
}

func appendVarInt(b []byte, v int) []byte {
	u := uint32(v)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

func varIntLen(v int) int {
	n, u := 1, uint32(v)
	for u >= 0x80 {
		n++
		u >>= 7
	}
	return n
}

func appendString(b []byte, s string) []byte {
	b = appendVarInt(b, len(s))
	return append(b, s...)
}

// appendPadded appends s as a Classic string: exactly 64 bytes, space padded.
func appendPadded(b []byte, s string) []byte {
	if len(s) > 64 {
		s = s[:64]
	}
	b = append(b, s...)
	for i := len(s); i < 64; i++ {
		b = append(b, ' ')
	}
	return b
}

// appendName appends a player name of at most 16 characters.
func appendName(b []byte, r *rng) []byte {
	start := len(b)
	b = append(b, r.pick(nameHeads)...)
	b = append(b, r.pick(nameTails)...)
	if r.intn(2) == 0 {
		b = appendUint(b, uint64(r.intn(1000)))
	}
	if len(b)-start > 16 {
		b = b[:start+16]
	}
	return b
}

func appendUint(b []byte, v uint64) []byte {
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}

const hexDigits = "0123456789abcdef"

// appendUUIDText appends a random version-4 UUID in its dashed text form.
func appendUUIDText(b []byte, r *rng) []byte {
	var u [16]byte
	fillUUID(&u, r)
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, hexDigits[c>>4], hexDigits[c&15])
	}
	return b
}

func fillUUID(u *[16]byte, r *rng) {
	binary.BigEndian.PutUint64(u[0:], r.next())
	binary.BigEndian.PutUint64(u[8:], r.next())
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
}
