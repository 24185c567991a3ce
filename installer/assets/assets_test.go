package assets

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestAssetsMatchSources fails when an embedded copy drifts from its source
// under plugins/. Run installer/sync-assets.sh to refresh the copies.
func TestAssetsMatchSources(t *testing.T) {
	for name, src := range Sources {
		t.Run(name, func(t *testing.T) {
			got := Must(name)
			if src == "" {
				return
			}
			want, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(src)))
			if os.IsNotExist(err) {
				t.Skipf("source %s does not exist yet; the embedded %s is a placeholder", src, name)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("installer/assets/%s differs from %s; run installer/sync-assets.sh", name, src)
			}
		})
	}
}
