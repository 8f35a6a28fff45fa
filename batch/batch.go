// Package batch holds the Batch view that models take and, for services,
// the dynamic Batcher that collects concurrent requests into batches run
// by a few model instances.
//
// Rules:
//   - A Batch is a view: it never copies or owns the items it shows.
//   - Building a Batch allocates nothing.
//   - A Batcher is safe for concurrent use; the models it drives are each
//     used by one worker goroutine only.
//   - Every accepted request gets exactly its own result, an error, or,
//     when its context ends before its batch starts, ctx.Err(). None is
//     lost, run twice or left waiting, including across Close.
//   - Infer allocates nothing in steady state: requests are pooled and
//     handed to workers over a channel.
//   - Close leaves no goroutine behind.
package batch

// Batch is a read-only view of a batch of payloads.
type Batch[T any] struct {
	items []T
}

// Of returns a Batch viewing items. The batch shares items' memory.
func Of[T any](items []T) Batch[T] { return Batch[T]{items: items} }

// Len returns the number of items.
func (b Batch[T]) Len() int { return len(b.items) }

// At returns a pointer to item i. It panics if i is out of range, as
// indexing a slice does.
func (b Batch[T]) At(i int) *T { return &b.items[i] }

// Items returns the underlying items.
func (b Batch[T]) Items() []T { return b.items }
