//go:build !unix

package runner

import "os"

func ttyWidth(*os.File) int { return 0 }
