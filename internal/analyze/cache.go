package analyze

// factsCache holds what was read of whole file versions, by language, path
// and blob, within a budget of source bytes: a range reads each version in
// the commits next to it, so the versions read last are the ones worth
// keeping, and a cache that kept them all held 150 MB of facts after
// prometheus's last 2,000 commits (the GC then ran a third of the time). It
// keeps two generations: when the current one is full it becomes the
// previous one, and what the previous one held is dropped unless it was
// used again since. The caller locks it.
type factsCache struct {
	cur, prev map[string]*Parsed
	curBytes  int
}

// factsCacheBytes is the source bytes a generation of factsCache holds.
const factsCacheBytes = 8 << 20

func (c *factsCache) get(k string) *Parsed {
	if v, ok := c.cur[k]; ok {
		return v
	}
	if v, ok := c.prev[k]; ok {
		c.put(k, v)
		return v
	}
	return nil
}

// put adds a version (v.size bytes of source).
func (c *factsCache) put(k string, v *Parsed) {
	if c.cur == nil || c.curBytes+v.size > factsCacheBytes && len(c.cur) > 0 {
		c.prev, c.cur, c.curBytes = c.cur, map[string]*Parsed{}, 0
	}
	c.cur[k] = v
	c.curBytes += v.size
}
