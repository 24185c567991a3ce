//go:build !unix

package hookiotest

func underAgent(string, string) {}
