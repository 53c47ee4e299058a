// Command gen rebuilds dissect/java/mcdata's data file from a pinned
// minecraft-data release on the npm registry (go generate in
// dissect/java/mcdata runs it):
//
//	go run ./gen -release 3.119.0 -out minecraft-data.gz
//
// It runs `npm pack minecraft-data@RELEASE` in a temporary directory, reads
// data/dataPaths.json and, for every Java ("pc") version that has one, the
// version's protocol.json and version.json, plus common/protocolVersions.json.
// Every type definition (a name and its JSON, per scope: the global types,
// or one state and direction) is stored once however many versions share
// it; each version lists its types by index. The result is the data file
// of dissect/java/mcdata (lines of JSON and the field table: mcdata.Encode),
// gzip'd, written with the release beside it (VERSION).
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcdissect/mcdissect/dissect/java"
	"github.com/mcdissect/mcdissect/dissect/java/mcdata"
)

func main() {
	release := flag.String("release", "3.119.0", "minecraft-data release on the npm registry")
	out := flag.String("out", "minecraft-data.gz", "output file")
	tgz := flag.String("tarball", "", "use this minecraft-data tarball instead of running npm pack")
	flag.Parse()
	log.SetFlags(0)
	if *tgz == "" {
		dir, err := os.MkdirTemp("", "mcdata-gen")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(dir)
		cmd := exec.Command("npm", "pack", "--silent", "minecraft-data@"+*release)
		cmd.Dir, cmd.Stderr = dir, os.Stderr
		name, err := cmd.Output()
		if err != nil {
			log.Fatalf("npm pack: %v", err)
		}
		*tgz = filepath.Join(dir, strings.TrimSpace(string(name)))
	}
	files, err := readTarball(*tgz)
	if err != nil {
		log.Fatal(err)
	}
	var pkg struct{ Version, License string }
	if err := json.Unmarshal(files["package/package.json"], &pkg); err != nil {
		log.Fatal("package.json: ", err)
	}
	if pkg.Version != *release {
		log.Fatalf("tarball is minecraft-data %s, want %s", pkg.Version, *release)
	}
	blob, err := build(files, pkg.Version)
	if err != nil {
		log.Fatal(err)
	}
	if err := java.FillFields(blob); err != nil {
		log.Fatal(err)
	}
	raw, err := mcdata.Encode(blob)
	if err != nil {
		log.Fatal(err)
	}
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	if err := os.WriteFile(*out, z.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	nv := 0
	for _, v := range blob.Versions {
		nv += len(v.Names)
	}
	ver := fmt.Sprintf("minecraft-data %s (npm, licence %s)\n%d protocol files, %d version names, %d distinct type definitions, %d fields\n%d bytes of text, %d gzip'd\n",
		pkg.Version, pkg.License, len(blob.Versions), nv, len(blob.Defs), len(blob.Fields), len(raw), z.Len())
	if err := os.WriteFile(filepath.Join(filepath.Dir(*out), "VERSION"), []byte(ver), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Print(ver)
}

// readTarball returns the tarball's JSON files by path.
func readTarball(name string) (map[string][]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		n := h.Name
		if n != "package/package.json" && !strings.HasPrefix(n, "package/minecraft-data/data/") {
			continue
		}
		if !strings.HasSuffix(n, "/package.json") && !strings.HasSuffix(n, "/dataPaths.json") &&
			!strings.HasSuffix(n, "/protocol.json") && !strings.HasSuffix(n, "/version.json") &&
			!strings.HasSuffix(n, "/protocolVersions.json") {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files[strings.TrimPrefix(n, "package/minecraft-data/")] = b
		if n == "package/package.json" {
			files[n] = b
		}
	}
}

func build(files map[string][]byte, release string) (*mcdata.Blob, error) {
	var paths struct {
		PC map[string]map[string]string `json:"pc"`
	}
	if err := json.Unmarshal(files["data/dataPaths.json"], &paths); err != nil {
		return nil, fmt.Errorf("dataPaths.json: %v", err)
	}
	blob := &mcdata.Blob{Release: release}
	defIdx := map[string]int{}
	def := func(raw json.RawMessage) (int, error) {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return 0, err
		}
		canon, _ := json.Marshal(v) // map keys sorted: one spelling per definition
		if i, ok := defIdx[string(canon)]; ok {
			return i, nil
		}
		defIdx[string(canon)] = len(blob.Defs)
		blob.Defs = append(blob.Defs, canon)
		return len(blob.Defs) - 1, nil
	}
	scope := func(m map[string]json.RawMessage) (map[string]int, error) {
		out := map[string]int{}
		for _, name := range sortedKeys(m) { // in order: the same data, the same file
			raw := m[name]
			i, err := def(raw)
			if err != nil {
				return nil, fmt.Errorf("type %s: %v", name, err)
			}
			out[name] = i
		}
		return out, nil
	}
	byPath := map[string]*mcdata.Version{}
	names := make([]string, 0, len(paths.PC))
	for n := range paths.PC {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		m := paths.PC[n]
		pp, ok := m["protocol"]
		if !ok || pp == "pc/0.30c" { // 0.30c is Classic, dissected elsewhere
			continue
		}
		var vj struct {
			Version int `json:"version"`
		}
		if err := json.Unmarshal(files["data/"+m["version"]+"/version.json"], &vj); err != nil {
			return nil, fmt.Errorf("%s version.json: %v", n, err)
		}
		v := byPath[pp]
		if v == nil {
			raw := files["data/"+pp+"/protocol.json"]
			var proto map[string]json.RawMessage
			if err := json.Unmarshal(raw, &proto); err != nil {
				return nil, fmt.Errorf("%s: %v", pp, err)
			}
			v = &mcdata.Version{Path: pp, States: map[string]map[string]map[string]int{}}
			var types map[string]json.RawMessage
			if err := json.Unmarshal(proto["types"], &types); err != nil {
				return nil, fmt.Errorf("%s types: %v", pp, err)
			}
			var err error
			if v.Types, err = scope(types); err != nil {
				return nil, fmt.Errorf("%s: %v", pp, err)
			}
			for _, st := range sortedKeys(proto) {
				sraw := proto[st]
				if st == "types" {
					continue
				}
				var dirs map[string]struct {
					Types map[string]json.RawMessage `json:"types"`
				}
				if err := json.Unmarshal(sraw, &dirs); err != nil {
					return nil, fmt.Errorf("%s %s: %v", pp, st, err)
				}
				v.States[st] = map[string]map[string]int{}
				for _, d := range sortedKeys(dirs) {
					if v.States[st][d], err = scope(dirs[d].Types); err != nil {
						return nil, fmt.Errorf("%s %s %s: %v", pp, st, d, err)
					}
				}
			}
			byPath[pp] = v
			blob.Versions = append(blob.Versions, v)
		}
		v.Names = append(v.Names, mcdata.VersionName{Name: n, Protocol: vj.Version})
	}
	for _, v := range blob.Versions {
		sort.Slice(v.Names, func(i, j int) bool {
			return v.Names[i].Protocol < v.Names[j].Protocol || v.Names[i].Protocol == v.Names[j].Protocol && v.Names[i].Name < v.Names[j].Name
		})
	}
	sort.Slice(blob.Versions, func(i, j int) bool { return blob.Versions[i].Names[0].Protocol < blob.Versions[j].Names[0].Protocol })
	var pvs []struct {
		MinecraftVersion string `json:"minecraftVersion"`
		Version          int    `json:"version"`
		UsesNetty        bool   `json:"usesNetty"`
	}
	if err := json.Unmarshal(files["data/pc/common/protocolVersions.json"], &pvs); err != nil {
		return nil, fmt.Errorf("protocolVersions.json: %v", err)
	}
	for _, p := range pvs {
		if p.UsesNetty {
			blob.Protocols = append(blob.Protocols, mcdata.VersionName{Name: p.MinecraftVersion, Protocol: p.Version})
		}
	}
	return blob, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
