package render

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
)

// Pictures the page shows beside the tree: an SLP status's favicon (its
// data URI as the tree holds it) and a Classic level as a map seen from
// above, drawn from the blocks the decoder inflated. Both are data: URIs,
// the only images the page's Content-Security-Policy allows.

// htmlMaxFavicon bounds the favicon URIs shown (the vanilla client's own
// limit is far below: a 64×64 PNG).
const htmlMaxFavicon = 256 << 10

// htmlMapSide bounds the map's width and height in pixels: a larger level
// is sampled every few blocks.
const htmlMapSide = 512

// appendImages appends ",\"img\":[[node, uri, caption]...]" for the PDU's
// pictures, nothing if it has none.
func (h *htmlRenderer) appendImages(b []byte, p *dissect.PDU, masked [][2]int) []byte {
	first := true
	add := func(node int, uri, caption string) {
		if first {
			b = append(b, ",\"img\":["...)
			first = false
		} else {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(node), 10)
		b = append(b, ',')
		b = appendHTMLJSON(b, uri)
		b = append(b, ',')
		b = appendHTMLJSON(b, caption)
		b = append(b, ']')
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.Field.Name == "slp.status.favicon" && n.Field.Type == dissect.FTString && !hidden(&h.o, p, i, masked) {
			if uri := n.Value.View(); faviconURI(uri) {
				add(i, uri, "the favicon, as the client shows it")
			}
		}
	}
	for _, o := range p.Objects {
		if o.Kind != "level" || strings.HasSuffix(o.Name, "-upper.bin") {
			continue
		}
		node := int(p.Find("classic.level"))
		x, y, z := nodeUint(p, "classic.level.size_x"), nodeUint(p, "classic.level.size_y"), nodeUint(p, "classic.level.size_z")
		if node < 0 || x == 0 || y == 0 || z == 0 || x*y*z > uint64(len(o.Data)) {
			continue
		}
		if uri := levelMap(o.Data, int(x), int(y), int(z)); uri != "" {
			add(node, uri, "the level seen from above: the highest block of each column, darker lower down (north is up)")
		}
	}
	if !first {
		b = append(b, ']')
	}
	return b
}

// faviconURI reports whether s is a PNG data URI of base64 text only.
func faviconURI(s string) bool {
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(s, prefix) || len(s) > htmlMaxFavicon || len(s) == len(prefix) {
		return false
	}
	for _, c := range []byte(s[len(prefix):]) {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// nodeUint is the value of the first node named name, 0 if none.
func nodeUint(p *dissect.PDU, name string) uint64 {
	if i := p.Find(name); i >= 0 {
		return p.Nodes[i].Value.N
	}
	return 0
}

// levelMap draws the level's blocks (Classic order: index (y×Z + z)×X + x)
// from above as a PNG data URI: each column's highest non-air block in
// its colour, shaded by height. blocks holds at least X×Y×Z bytes.
func levelMap(blocks []byte, sx, sy, sz int) string {
	step := 1
	for sx/step > htmlMapSide || sz/step > htmlMapSide {
		step++
	}
	w, hgt := (sx+step-1)/step, (sz+step-1)/step
	img := image.NewNRGBA(image.Rect(0, 0, w, hgt))
	for pz := 0; pz < hgt; pz++ {
		for px := 0; px < w; px++ {
			x, z := px*step, pz*step
			c := color.NRGBA{0, 0, 0, 0} // a column of air: transparent
			for y := sy - 1; y >= 0; y-- {
				id := blocks[(y*sz+z)*sx+x]
				if id == 0 {
					continue
				}
				c = shade(blockColour(id), y, sy)
				break
			}
			img.SetNRGBA(px, pz, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return ""
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

// shade darkens c by height: the top of the level full colour, its floor
// at 55 %.
func shade(c color.NRGBA, y, sy int) color.NRGBA {
	f := 0.55 + 0.45*float64(y+1)/float64(sy)
	return color.NRGBA{uint8(float64(c.R) * f), uint8(float64(c.G) * f), uint8(float64(c.B) * f), 255}
}

// classicColours are the core blocks' colours, roughly as their textures
// look from above (IDs 0-49, Classic 0.30's block list).
var classicColours = [50][3]uint8{
	{0, 0, 0}, {125, 125, 125}, {95, 159, 53}, {134, 96, 67}, {115, 115, 115}, // air, stone, grass, dirt, cobblestone
	{157, 128, 79}, {80, 140, 40}, {50, 50, 50}, {47, 94, 220}, {47, 94, 220}, // planks, sapling, bedrock, water ×2
	{220, 90, 20}, {220, 90, 20}, {219, 211, 160}, {136, 126, 126}, {143, 140, 125}, // lava ×2, sand, gravel, gold ore
	{136, 130, 127}, {115, 115, 115}, {102, 81, 51}, {60, 140, 40}, {195, 195, 70}, // iron ore, coal ore, log, leaves, sponge
	{200, 230, 240}, {220, 50, 50}, {230, 140, 40}, {230, 230, 50}, {130, 220, 40}, // glass, red, orange, yellow, lime cloth
	{40, 200, 40}, {40, 200, 140}, {40, 220, 220}, {90, 160, 230}, {110, 110, 230}, // green, teal, aqua, cyan, blue cloth
	{140, 90, 230}, {170, 80, 230}, {220, 80, 220}, {230, 60, 150}, {70, 70, 70}, // indigo, violet, magenta, pink, black cloth
	{150, 150, 150}, {230, 230, 230}, {230, 220, 40}, {200, 30, 30}, {150, 110, 80}, // gray, white cloth, dandelion, rose, brown mushroom
	{210, 50, 50}, {250, 220, 60}, {220, 220, 220}, {160, 160, 160}, {160, 160, 160}, // red mushroom, gold, iron, double slab, slab
	{150, 70, 50}, {200, 50, 40}, {110, 90, 60}, {90, 120, 90}, {20, 18, 30}, // brick, TNT, bookshelf, mossy cobblestone, obsidian
}

func blockColour(id byte) color.NRGBA {
	if int(id) < len(classicColours) {
		c := classicColours[id]
		return color.NRGBA{c[0], c[1], c[2], 255}
	}
	return color.NRGBA{170, 150, 190, 255} // CPE and custom blocks: one pale violet
}
