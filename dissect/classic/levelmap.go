package classic

import (
	"image"
	"image/color"
)

// LevelMap draws a level seen from above: one pixel per column (X across,
// Z down), the colour of its highest block that is not air, darker the
// lower it lies so that hills show; a column of air is transparent.
// blocks are ordered (y*Z + z)*X + x, as the level's inflated array; a
// short array leaves the missing columns transparent. With maxSide above
// zero, a level wider or deeper than that is sampled every few blocks so
// that neither side passes it. It reads only the bytes there are.
func LevelMap(blocks []byte, x, y, z, maxSide int) *image.RGBA {
	step := 1
	for maxSide > 0 && (x/step > maxSide || z/step > maxSide) {
		step++
	}
	w, h := (max(x, 0)+step-1)/step, (max(z, 0)+step-1)/step
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if x <= 0 || y <= 0 || z <= 0 {
		return img
	}
	for pz := 0; pz < h; pz++ {
		for px := 0; px < w; px++ {
			xx, zz := px*step, pz*step
			var c color.RGBA
			for yy := y - 1; yy >= 0; yy-- {
				i := (yy*z+zz)*x + xx
				if i >= len(blocks) {
					continue
				}
				if b := blocks[i]; b != 0 {
					c = shade(blockColor(b), yy, y)
					break
				}
			}
			img.SetRGBA(px, pz, c)
		}
	}
	return img
}

// shade darkens a colour with depth: the top of the level at full
// brightness, the bottom at half.
func shade(c color.RGBA, yy, y int) color.RGBA {
	f := 128 + 127*yy/max(y-1, 1)
	return color.RGBA{uint8(int(c.R) * f / 255), uint8(int(c.G) * f / 255), uint8(int(c.B) * f / 255), 255}
}

// blockColor is a block's colour on the map: the classic blocks' look
// (stone grey, grass green, water blue...), magenta for IDs past them.
func blockColor(b byte) color.RGBA {
	if int(b) < len(blockColors) {
		return blockColors[b]
	}
	return color.RGBA{200, 0, 200, 255}
}

var blockColors = [...]color.RGBA{
	0: {0, 0, 0, 255}, 1: {125, 125, 125, 255}, 2: {95, 159, 53, 255}, 3: {134, 96, 67, 255}, 4: {110, 110, 110, 255},
	5: {157, 128, 79, 255}, 6: {72, 140, 40, 255}, 7: {50, 50, 50, 255}, 8: {44, 94, 220, 255}, 9: {44, 94, 220, 255},
	10: {230, 100, 20, 255}, 11: {230, 100, 20, 255}, 12: {219, 211, 160, 255}, 13: {136, 126, 126, 255}, 14: {190, 170, 80, 255},
	15: {170, 150, 130, 255}, 16: {70, 70, 70, 255}, 17: {102, 81, 50, 255}, 18: {60, 130, 40, 255}, 19: {200, 200, 60, 255},
	20: {200, 230, 240, 255}, 21: {222, 50, 50, 255}, 22: {222, 140, 50, 255}, 23: {222, 222, 50, 255}, 24: {140, 222, 50, 255},
	25: {50, 222, 50, 255}, 26: {50, 222, 140, 255}, 27: {50, 222, 222, 255}, 28: {80, 160, 222, 255}, 29: {120, 120, 222, 255},
	30: {140, 70, 222, 255}, 31: {170, 80, 222, 255}, 32: {222, 50, 222, 255}, 33: {222, 60, 140, 255}, 34: {60, 60, 60, 255},
	35: {140, 140, 140, 255}, 36: {222, 222, 222, 255}, 37: {240, 230, 40, 255}, 38: {220, 30, 30, 255}, 39: {150, 110, 80, 255},
	40: {200, 40, 40, 255}, 41: {250, 220, 60, 255}, 42: {220, 220, 220, 255}, 43: {160, 160, 160, 255}, 44: {160, 160, 160, 255},
	45: {150, 80, 60, 255}, 46: {200, 60, 40, 255}, 47: {120, 90, 50, 255}, 48: {90, 110, 90, 255}, 49: {20, 15, 30, 255},
}
