package filter

import (
	"errors"
	"fmt"
	"strings"
)

// maven renders Maven (mvn, mvnw, mvnd) builds with Surefire's test
// reports: the plugin banners, separators, download and compile chatter
// go; each module's test totals come on one line named after the module;
// every [ERROR] and [WARNING] line stays (a failing test class, each
// failing test with its message and stack, Surefire's Failures/Errors
// list with Class.method:line, compiler errors with file:[line,col]), as
// do BUILD SUCCESS / FAILURE, the reactor summary (on one line) and the
// resume hint; Maven's generic help lines go, and the error block it
// repeats after "Failed to execute goal" is printed once. Framework stack
// frames (JUnit, reflection, Surefire) are counted, not printed.
type maven struct{ same }

var (
	mvnLevel = lazy(`^\[(INFO|WARNING|WARN|ERROR|DEBUG)\] ?`)
	// module header: "Building shop-core 1.0-SNAPSHOT   [2/3]"
	mvnBuilding = lazy(`^Building (\S+) (\S+)(?:\s+\[\d+/\d+\])?$`)
	// reactor summary row: "shop-core ....... SUCCESS [  1.2 s]"
	mvnReactorRow = lazy(`^(\S.*?) \.{2,} ?(SUCCESS|FAILURE|SKIPPED)\b(?: \[\s*(.+?)\])?$`)
	// a test class's line: "Tests run: 3, Failures: 0, ... - in x.Y"
	mvnClassRun = lazy(`^Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+, Time elapsed: .*? - in `)
	mvnTotals   = lazy(`^Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+$`)
	mvnElapsed  = lazy(`,? +Time elapsed: [\d.,]+ s(ec)?`)
	mvnNoise    = []*lazyRegexp{
		lazy(`^-{3,}$`),
		lazy(`^-+< \S+ >-+$`),
		lazy(`^-+\[ \S+ \]-+$`),
		lazy(`^--- \S+ .*---$`),
		lazy(`^Scanning for projects\.\.\.$`),
		lazy(`^Reactor Build Order:$`),
		lazy(`^\S+\s+\[(pom|jar|war|ear|maven-plugin|bundle|aar)\]$`),
		lazy(`^(skip non existing resourceDirectory|Using '.*' encoding|Copying \d+ resources?|Changes detected - recompiling|Compiling \d+ source files? |Nothing to compile|No sources to compile|No tests to run|Building jar:|Building war:|Installing |Tests are skipped)`),
		lazy(`^(Download(ing|ed) from |Progress \(\d+\))`),
		lazy(`^ T E S T S$`),
		lazy(`^Running \S+$`),
		lazy(`^Results ?:$`),
		lazy(`^Total time: `),
		lazy(`^Finished at: `),
		lazy(`^\d+ errors? $`),
	}
	// Maven's generic advice after a failure
	mvnHelp = []*lazyRegexp{
		lazy(`^To see the full stack trace of the errors, re-run Maven with the -e switch\.$`),
		lazy(`^Re-run Maven using the -X switch to enable full debug logging\.$`),
		lazy(`^For more information about the errors and possible solutions, please read the following articles:$`),
		lazy(`^\[Help \d+\] https?://`),
		lazy(`^-> \[Help \d+\]$`),
		lazy(`^Please refer to dump files \(if any exist\)`),
		lazy(`^Please refer to \S+/surefire-reports for the individual test results\.$`),
		lazy(`^Some messages have been simplified; recompile with -Xdiags:verbose to get full output$`),
	}
	// stack frames of the test framework and the JVM, not of the project
	mvnFrameworkFrame = lazy(`^\s+at (org\.junit\.|junit\.framework\.|org\.apache\.maven\.surefire\.|org\.testng\.|java\.base/|jdk\.internal\.|sun\.reflect\.|java\.lang\.reflect\.|java\.lang\.Thread\.|org\.opentest4j\.|org\.mockito\.internal\.)`)
)

// Boilerplate: Maven's generic advice after a failure (mvnHelp), with or
// without its level and colour.
func (maven) Boilerplate(l string) bool {
	l = strings.TrimSpace(ansi.ReplaceAllString(l, ""))
	if m := mvnLevel.FindString(l); m != "" {
		l = strings.TrimSpace(l[len(m):])
	}
	return l != "" && matchesAny(l, mvnHelp)
}

// Render walks the build.
func (maven) Render(in Input) (Output, error) {
	ll := lines(in.Stdout)
	maven := false
	for _, l := range ll {
		if mvnLevel.MatchString(l) {
			maven = true
			break
		}
	}
	if !maven {
		return Output{}, errors.New("maven: no [INFO]/[ERROR] lines")
	}
	var (
		out      []string
		seen     = map[string]bool{} // [ERROR]/[WARNING] texts printed
		module   string
		results  bool // after "Results:": the next totals are the module's
		final    bool // after "Failed to execute goal": repeats go
		reactor  []string
		frames   int // framework frames left out in a row
		leftOut  int // frames left out in all
		lastKept string
	)
	flushFrames := func() {
		if frames > 0 {
			out = append(out, fmt.Sprintf("\t... %s", plural(frames, "framework frame", "framework frames")))
			leftOut += frames
			frames = 0
		}
	}
	for _, l := range ll {
		m := mvnLevel.FindStringSubmatch(l)
		if m == nil {
			// a stack, an exception message, a compiler's detail, test output
			if mvnFrameworkFrame.MatchString(l) {
				frames++
				continue
			}
			flushFrames()
			if final && seen[strings.TrimSpace(l)] {
				continue
			}
			if strings.TrimSpace(l) == "" && strings.TrimSpace(lastKept) == "" {
				continue
			}
			out = append(out, l)
			lastKept = l
			if t := strings.TrimSpace(l); t != "" {
				seen[t] = true
			}
			continue
		}
		flushFrames()
		level := m[1]
		if level == "WARN" {
			level = "WARNING"
		}
		text := strings.TrimRight(l[len(m[0]):], " \t")
		text = strings.TrimSuffix(text, " -> [Help 1]")
		if t := mvnBuilding.FindStringSubmatch(text); t != nil && level == "INFO" {
			module = t[1]
			continue
		}
		if t := mvnReactorRow.FindStringSubmatch(text); t != nil && level == "INFO" {
			reactor = append(reactor, t[1]+" "+t[2])
			continue
		}
		if strings.HasPrefix(text, "Reactor Summary") {
			continue
		}
		if text == "Results:" || text == "Results :" {
			results = true
			continue
		}
		if mvnTotals.MatchString(text) {
			if results && module != "" {
				text = module + ": " + text
			}
			results = false
			out = append(out, withLevel(level, text))
			lastKept = text
			continue
		}
		if mvnClassRun.MatchString(text) && level != "ERROR" {
			continue // a green class: the module's totals count it
		}
		if strings.TrimSpace(text) == "" || matchesAny(text, mvnNoise) || matchesAny(text, mvnHelp) {
			continue
		}
		if strings.HasPrefix(text, "BUILD ") && len(reactor) > 0 {
			out = append(out, "Reactor Summary: "+strings.Join(reactor, ", "))
			reactor = nil
		}
		if strings.HasPrefix(text, "Failed to execute goal") {
			final = true
		}
		text = mvnElapsed.ReplaceAllString(text, "")
		key := strings.TrimSpace(text)
		if level != "INFO" && final && seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, withLevel(level, text))
		lastKept = text
	}
	flushFrames()
	if len(reactor) > 0 {
		out = append(out, "Reactor Summary: "+strings.Join(reactor, ", "))
	}
	if leftOut > 0 {
		out = append(out, fmt.Sprintf("(%s of JUnit, Surefire and the JVM left out: %s)", plural(leftOut, "stack frame", "stack frames"), in.Recall()))
	}
	out = dropBlankRuns(out)
	if in.Exit != 0 && len(out) == 0 {
		return Output{}, errors.New("maven: nothing left of a failing run")
	}
	return Output{Stdout: join(out), Stderr: keepStderr(in)}, nil
}

// withLevel writes a kept line: [INFO] goes, [ERROR] and [WARNING] stay.
func withLevel(level, text string) string {
	if level == "INFO" {
		return text
	}
	return "[" + level + "] " + text
}

func matchesAny(s string, res []*lazyRegexp) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
