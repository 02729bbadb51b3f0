package memory

import "time"

// expiry is when the item at ns and key expires.
type expiry struct {
	at      time.Time
	ns, key string
}

// expiryHeap orders expiries soonest first (container/heap), so that a Put
// finds the expired items without looking at every item.
type expiryHeap []expiry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(expiry)) }
func (h *expiryHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
