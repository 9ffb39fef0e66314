// Command ketama-conformance answers the ketama conformance protocol (docs/conformance.md)
// with the Go port, so `ketama conformance --all -- ketama-conformance` checks the port
// against every vector file recorded from the real clients.
package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	ketama "github.com/ketama/ketama/go"
)

type kase struct {
	kind, profile, hash string
	n                   int
	opts                ketama.Options
	servers             []ketama.Server
	keys                [][]byte
}

func main() {
	if err := serve(); err != nil {
		fmt.Fprintln(os.Stderr, "ketama-conformance:", err)
		os.Exit(2)
	}
}

func serve() error {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	var c *kase
	for line := 1; in.Scan(); line++ {
		text := in.Text()
		word, rest, _ := strings.Cut(text, " ")
		fault := func(what string) error { return fmt.Errorf("line %d: %s: %q", line, what, text) }
		if word == "case" {
			c = &kase{kind: "locate", n: 1}
			continue
		}
		if c == nil {
			return fault("outside a case")
		}
		opt := func(v string) string {
			if v == "-" {
				return ""
			}
			return v
		}
		switch word {
		case "kind":
			c.kind = rest
		case "profile":
			c.profile = opt(rest)
		case "hash":
			c.hash = opt(rest)
		case "n":
			n, err := strconv.Atoi(rest)
			if err != nil {
				return fault("bad n")
			}
			c.n = n
		case "option":
			name, value, _ := strings.Cut(rest, " ")
			if name == "hash_with_prefix" {
				if value != "0" && value != "1" {
					return fault("hash_with_prefix is 0 or 1")
				}
				c.opts.HashWithPrefix = value == "1"
				continue
			}
			b, err := hex.DecodeString(value)
			if err != nil {
				return fault("bad option hex")
			}
			switch name {
			case "hash_tag":
				c.opts.HashTag = string(b)
			case "prefix_key":
				c.opts.PrefixKey = string(b)
			default:
				return fault("unknown option")
			}
		case "server":
			f := strings.Split(rest, " ")
			if len(f) != 3 {
				return fault("a server line has 3 fields")
			}
			w, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return fault("bad weight")
			}
			s := ketama.Server{Label: f[0], Weight: uint32(w)}
			if w > 0xFFFFFFFF {
				s.Weight = 0 // refused below
			}
			if f[2] != "-" {
				name, err := hex.DecodeString(f[2])
				if err != nil {
					return fault("bad name hex")
				}
				s.Name = string(name)
			}
			c.servers = append(c.servers, s)
		case "key":
			k, err := hex.DecodeString(rest)
			if err != nil {
				return fault("bad key hex")
			}
			c.keys = append(c.keys, k)
		case "end":
			answer(out, c)
			if err := out.Flush(); err != nil {
				return err
			}
			c = nil
		default:
			return fault("unknown line")
		}
	}
	return in.Err()
}

func errorLine(out *bufio.Writer, err error) {
	var e *ketama.Error
	if errors.As(err, &e) {
		fmt.Fprintf(out, "error %s %s\nend\n", e.Name, err)
		return
	}
	fmt.Fprintf(out, "error Unsupported %s\nend\n", err)
}

func answer(out *bufio.Writer, c *kase) {
	if c.kind == "hash" && c.profile == "" {
		for _, k := range c.keys {
			h, err := ketama.HashKey(c.hash, k)
			if err != nil {
				out.Reset(out)
				errorLine(out, err)
				return
			}
			fmt.Fprintln(out, h)
		}
		out.WriteString("end\n")
		return
	}
	servers := c.servers
	if c.kind == "hash" {
		servers = nil
	}
	r, err := ketama.New(c.profile, c.hash, servers)
	if err == nil {
		r, err = r.WithOptions(c.opts)
	}
	if err != nil {
		errorLine(out, err)
		return
	}
	for _, k := range c.keys {
		var line string
		switch c.kind {
		case "hash":
			h, err := r.KeyHash(k)
			line = strconv.FormatUint(uint64(h), 10)
			if err != nil {
				line = "null"
			}
		case "failover":
			l, err := r.FailoverBytes(k, c.n)
			line = strings.Join(l, " ")
			if err != nil {
				line = "null"
			}
		default:
			l, err := r.GetBytes(k)
			line = l
			if err != nil {
				line = "null"
			}
		}
		out.WriteString(line)
		out.WriteByte('\n')
	}
	out.WriteString("end\n")
}
