package scrape

// Cache maps series to the refs the storage returned for them.
type Cache struct{ refs map[string]uint64 }

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{refs: map[string]uint64{}} }

// Track records the ref the storage returned for series.
func (c *Cache) Track(series string, ref uint64) { c.refs[series] = ref }

// Ref returns the tracked ref of series.
func (c *Cache) Ref(series string) (uint64, bool) {
	r, ok := c.refs[series]
	return r, ok
}
