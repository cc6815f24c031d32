// The floor for Scripts/bench-extract.sh: libxml2 2.9.14 parsing the same pages with no extraction,
// once building a DOM (htmlReadMemory) and once as a bare SAX pass with no callbacks.
// Usage: libxml2_floor dom|sax FILE... ; prints "libxml2-<mode> pages=N bytes=B seconds=S MB/s=X".
#include <libxml/HTMLparser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int sax = strcmp(argv[1], "sax") == 0;
    int count = argc - 2;
    char **data = calloc(count, sizeof *data);
    long *sizes = calloc(count, sizeof *sizes);
    long total = 0;
    for (int i = 0; i < count; i++) {
        FILE *f = fopen(argv[i + 2], "rb");
        if (!f) return 2;
        fseek(f, 0, SEEK_END);
        sizes[i] = ftell(f);
        fseek(f, 0, SEEK_SET);
        data[i] = malloc(sizes[i]);
        if (fread(data[i], 1, sizes[i], f) != (size_t)sizes[i]) return 2;
        fclose(f);
        total += sizes[i];
    }
    xmlInitParser();
    // FLOOR_PASSES: how many passes to time (the best is printed); 3 unless set.
    const char *passesSetting = getenv("FLOOR_PASSES");
    int passes = passesSetting != NULL && atoi(passesSetting) > 0 ? atoi(passesSetting) : 3;
    double best = 1e9;
    for (int repeat = 0; repeat < passes; repeat++) {
        double start = now();
        for (int i = 0; i < count; i++) {
            if (sax) {
                htmlSAXHandler handler;
                memset(&handler, 0, sizeof handler);
                htmlParserCtxtPtr ctxt = htmlCreateMemoryParserCtxt(data[i], (int)sizes[i]);
                memset(ctxt->sax, 0, sizeof(htmlSAXHandler));
                htmlCtxtUseOptions(ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
                htmlParseDocument(ctxt);
                htmlFreeParserCtxt(ctxt);
            } else {
                htmlDocPtr doc = htmlReadMemory(data[i], (int)sizes[i], "http://fakehost/test/page.html", NULL,
                                                HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
                xmlFreeDoc(doc);
            }
        }
        double elapsed = now() - start;
        if (elapsed < best) best = elapsed;
    }
    printf("libxml2-%s pages=%d bytes=%ld seconds=%.3f MB/s=%.1f\n", sax ? "sax" : "dom", count, total, best, total / best / 1e6);
    return 0;
}
