package slp

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"strconv"
	"strings"
	"sync"
)

// KeyLog holds what opens encrypted Java sessions (--keylog), in the
// spirit of Wireshark's TLS key log. Two forms, told apart by content:
//
//   - lines "MC_SHARED_SECRET <encrypted> <secret>": the RSA-encrypted
//     shared secret as the client sends it in Encryption Response, and the
//     16-byte secret itself, both in hex; '#' starts a comment;
//   - a PEM RSA private key of the server (PKCS #1 or PKCS #8): Minecraft's
//     key exchange has no forward secrecy, so the server's key opens every
//     Encryption Response sent to it.
//
// A file may hold both. A KeyLog is safe for concurrent use.
type KeyLog struct {
	mu      sync.Mutex
	secrets map[string][]byte // hex of the encrypted secret -> secret, from MC_SHARED_SECRET lines
	// recovered: the secrets a server key decrypted, by the same key.
	// Each connection looks its secret up twice (framing and decoding
	// keep a state each): RSA runs once, and both say how it was found.
	recovered map[string][]byte
	keys      []*rsa.PrivateKey
}

// ParseKeyLog reads a key log's content.
func ParseKeyLog(b []byte) (*KeyLog, error) {
	k := &KeyLog{secrets: map[string][]byte{}, recovered: map[string][]byte{}}
	rest := b
	for {
		blk, r := pem.Decode(rest)
		if blk == nil {
			break
		}
		rest = r
		key, err := parseRSAKey(blk)
		if err != nil {
			return nil, err
		}
		k.keys = append(k.keys, key)
	}
	// lines outside PEM blocks
	inPEM := false
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "-----BEGIN"):
			inPEM = true
			continue
		case strings.HasPrefix(line, "-----END"):
			inPEM = false
			continue
		case inPEM, line == "", strings.HasPrefix(line, "#"):
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "MC_SHARED_SECRET" {
			return nil, errors.New("key log line " + strconv.Itoa(n+1) + ": not MC_SHARED_SECRET <encrypted hex> <secret hex>, nor a PEM key")
		}
		enc, err1 := hex.DecodeString(f[1])
		sec, err2 := hex.DecodeString(f[2])
		if err1 != nil || err2 != nil || len(sec) != 16 || len(enc) == 0 {
			return nil, errors.New("key log line " + strconv.Itoa(n+1) + ": the secret must be 16 bytes and both fields hex")
		}
		k.secrets[hex.EncodeToString(enc)] = sec
	}
	if len(k.keys) == 0 && len(k.secrets) == 0 {
		return nil, errors.New("key log: no MC_SHARED_SECRET line and no PEM RSA private key")
	}
	return k, nil
}

func parseRSAKey(blk *pem.Block) (*rsa.PrivateKey, error) {
	if key, err := x509.ParsePKCS1PrivateKey(blk.Bytes); err == nil {
		return key, nil
	}
	key, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, errors.New("key log: a PEM block that is not an RSA private key (" + blk.Type + ")")
	}
	rk, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("key log: a PEM private key that is not RSA")
	}
	return rk, nil
}

// Secret finds the shared secret whose RSA-encrypted form is enc (as the
// client sent it): from a MC_SHARED_SECRET line, or by decrypting enc with
// one of the server keys. how says which ("key log line", "server's RSA
// key").
func (k *KeyLog) Secret(enc []byte) (secret []byte, how string, ok bool) {
	if k == nil || len(enc) == 0 {
		return nil, "", false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	h := hex.EncodeToString(enc)
	if s, ok := k.secrets[h]; ok {
		return s, "key log line", true
	}
	if s, ok := k.recovered[h]; ok {
		return s, "server's RSA key", true
	}
	for _, key := range k.keys {
		s, err := rsa.DecryptPKCS1v15(nil, key, enc)
		if err == nil && len(s) == 16 {
			k.recovered[h] = s
			return s, "server's RSA key", true
		}
	}
	return nil, "", false
}

// Secrets lists every shared secret the key log holds, so that --redact
// can mask their copies wherever they appear.
func (k *KeyLog) Secrets() [][]byte {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	var out [][]byte
	for _, m := range []map[string][]byte{k.secrets, k.recovered} {
		for _, s := range m {
			out = append(out, bytes.Clone(s))
		}
	}
	return out
}

// cfb8 is AES/CFB8 decryption, Minecraft's cipher (key = IV = the shared
// secret), one direction's state: the last 16 ciphertext bytes. Copying
// the value copies the state (framing tries a decryption before it
// commits to it).
type cfb8 struct {
	b  cipher.Block
	sr [16]byte
}

func newCFB8(secret []byte) (*cfb8, error) {
	b, err := aes.NewCipher(secret)
	if err != nil {
		return nil, err
	}
	c := &cfb8{b: b}
	copy(c.sr[:], secret)
	return c, nil
}

// decrypt decrypts src into dst (which may be src) and advances the state.
func (c *cfb8) decrypt(dst, src []byte) {
	var out [16]byte
	for i, x := range src {
		c.b.Encrypt(out[:], c.sr[:])
		copy(c.sr[:], c.sr[1:])
		c.sr[15] = x
		dst[i] = x ^ out[0]
	}
}
