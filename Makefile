# SpotCheck — the two commands a newcomer needs are `make demo` and `make test`.
# Both install the Debian packages the build needs when they are missing.

SWIFT ?= swift
APT_PACKAGES := pkg-config libxml2-dev libcurl4-openssl-dev libsqlite3-dev zlib1g-dev openssl
SHARED ?= ../shared
RELEASE_BIN := .build/release/spotcheck

.PHONY: soak sanitize fuzz fuzz-ci deps build release package package-check demo test score score-check sarif-check formats-check html-check html-screenshots html-deuteranopia bench bench-crawl bench-index bench-scaleout bench-frontier format lint clean

deps:
	@Scripts/install-deps.sh $(APT_PACKAGES)

build: deps
	$(SWIFT) build

# The Swift runtime is linked into the binary (--static-swift-stdlib), so the one release build
# serves make demo, the checks and make package alike, and runs where no Swift toolchain is.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

# The .deb and the tarball in dist/, from the release build (issue 34; docs/install.md).
package: release
	Scripts/package.sh

# Each package installed and run in a clean Debian 12 root (as root: chroot), and docs/install.md's
# CI recipes run against them; skipped, loudly, only when Debian's package registry cannot be reached.
package-check: package
	Scripts/check-package.sh

# The main job: crawl the fixture site, served on 127.0.0.1 by SpotCheck's embedded server and
# read as https://www.example.com (Fixtures/html/spotcheck-site.json); report in reports/.
demo: release
	$(RELEASE_BIN) crawl Fixtures/html --items Fixtures/items.json --app-id 1234567890 \
		--app ABCDE12345.com.example.familycinema --format json,sarif,junit,html

# The tests run beside a throwaway PostgreSQL cluster (Scripts/with-postgres.sh installs Debian's
# postgresql-15 when missing), so the shared-crawl tests never skip here.
# The suites that start headless Chromium run after the others, on their own: Chromium's start-up
# on two cores would starve the socket suites' deadlines.
CHROMIUM_SUITES := RenderCrawlTests|ChromiumRendererTests|ChromiumMissingTests
# The README commands (one crawl with --render among them) run last, alone: beside the Chromium
# suites they starved Chromium's start-up past its 30 s deadline.
README_SUITE := ReadmeCommandTests

test: deps
	@Scripts/install-deps.sh chromium
	$(SWIFT) build --build-tests
	Scripts/with-postgres.sh sh -c '$(SWIFT) test --skip-build --skip "$(CHROMIUM_SUITES)|$(README_SUITE)" && $(SWIFT) test --skip-build --filter "$(CHROMIUM_SUITES)" && $(SWIFT) test --skip-build --filter "$(README_SUITE)"'

# Conformance scores on the shared corpora (needs ../shared).
score: release
	Scripts/check-scores.py --binary $(RELEASE_BIN) --shared $(SHARED)

# Fails when a normative case that passed before (Scripts/score-baseline.json) now fails.
score-check: release
	Scripts/check-scores.py --binary $(RELEASE_BIN) --shared $(SHARED) --check Scripts/score-baseline.json

# The machine formats of a fixture crawl (with the app's local items) and of validate on the
# fixture files. sarif-check: SARIF read by an independent SARIF 2.1.0 model (sarif-pydantic, PyPI).
# formats-check: SARIF against the official JSON Schema with format checks, report.json against
# docs/report.schema.json, JUnit counts (jsonschema + rfc3986-validator, PyPI; needs ../shared).
FORMATS_CHECK_RUNS = rm -rf .build/sarif-check .build/sarif-check-validate && \
	$(RELEASE_BIN) crawl Fixtures/html --items Fixtures/items.json --app-id 1234567890 \
		--app ABCDE12345.com.example.familycinema --output .build/sarif-check --format json,sarif,junit --quiet && \
	$(RELEASE_BIN) validate Fixtures/html --output .build/sarif-check-validate --format json,sarif,junit --quiet
sarif-check: release
	$(FORMATS_CHECK_RUNS)
	Scripts/check-sarif.sh .build/sarif-check/findings.sarif .build/sarif-check-validate/findings.sarif

formats-check: release
	$(FORMATS_CHECK_RUNS)
	SARIF_SCHEMA=$(SHARED)/corpora/sarif/sarif-schema-2.1.0.json Scripts/check-formats.sh .build/sarif-check .build/sarif-check-validate

# The fixture crawl's HTML report in headless Chromium (Debian's chromium, installed when missing):
# console errors, script from the hostile fixture page, network use, filter and sort.
HTML_CHECK_CRAWL = .build/debug/spotcheck crawl Fixtures/html --output .build/html-check \
	--app-id 1234567890 --app ABCDE12345.com.example.familycinema --format json,html --quiet
html-check: build
	rm -rf .build/html-check
	$(HTML_CHECK_CRAWL)
	Scripts/check-html-report.sh .build/html-check --hostile broken/hostile.html --detail colleagues/office.html

# The same, writing the README's screenshots (the fixture's images stand in for www.example.com):
# the top of the report, and a page with a finding (SD001, its excerpt and fix).
html-screenshots: build
	rm -rf .build/html-check
	$(HTML_CHECK_CRAWL)
	Scripts/check-html-report.sh .build/html-check --hostile broken/hostile.html --detail broken/jsonld-trailing-comma.html \
		--screenshots docs/images --images-from Fixtures/html

# The same screenshots as a reader with deuteranopia sees them (Chromium's simulation), to check
# that severities stay apart: .build/html-check/deuteranopia/*.png (not committed).
html-deuteranopia: build
	rm -rf .build/html-check
	$(HTML_CHECK_CRAWL)
	Scripts/check-html-report.sh .build/html-check --detail broken/jsonld-trailing-comma.html \
		--screenshots .build/html-check/deuteranopia --images-from Fixtures/html --simulate deuteranopia

bench: release
	Scripts/bench-extract.sh

# Crawl benchmark: a 5,000-page loopback site, SpotCheck vs Scrapy + extruct (docs/measurements.md).
bench-crawl: release
	Scripts/bench_crawl.py --pages 5000 --rss-pages 20000

# Local-index benchmark: import 1,000,000 generated items, 1,000 searches, into SQLite and into a
# throwaway PostgreSQL, side by side (docs/index.md, docs/scale-out.md).
bench-index: release
	Scripts/bench_index.py --items 1000000 --searches 1000 --class-searches 100 --postgres auto

# Scale-out benchmark: a crawl shared by 1, 2 and 3 processes through PostgreSQL beside the
# SQLite crawl, and the host lease's round trip (docs/scale-out.md).
bench-scaleout: release
	Scripts/bench_scaleout.py --pages 5000 --statements 5

bench-frontier: release
	Scripts/bench_frontier.py --pages 20000 --hosts 64

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks Fuzz Package.swift

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks Fuzz Package.swift
	Scripts/check-numeric-conversions.sh

clean:
	rm -rf .build

# libFuzzer harnesses (Fuzz/, docs/reliability.md): each built with -sanitize=fuzzer,address and run
# FUZZ_SECONDS on a corpus seeded from the fixtures and ../shared/corpora, saved inputs first.
FUZZ_SECONDS ?= 60
fuzz: deps
	Scripts/fuzz.sh $(FUZZ_SECONDS)

# The CI run: a fixed seed and number of inputs per harness (deterministic), saved inputs first.
fuzz-ci: deps
	Scripts/fuzz.sh ci

# The tests under AddressSanitizer (Swift and C) and UndefinedBehaviorSanitizer (the C scanner), in
# .build-sanitize; any report fails. Run by .ci/run.
sanitize: deps
	Scripts/sanitize.sh

# Crash safety under repeated faults (issue 17 §3): kill -9 at random moments of a 3,000-page
# crawl, each followed by --resume; a full disk mid-crawl; a read-only output folder (the last
# two mount tmpfs file systems: root only, skipped otherwise). SOAK_ARGS e.g. "--pages 500 --kills 3".
soak: release
	Scripts/soak.py $(SOAK_ARGS)
