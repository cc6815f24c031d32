#!/usr/bin/env bash
# Issue 35: `Int(x)` of a Double traps on NaN, an infinity or a value past Int.max, and such
# values come from input (headers, options, pages, stores). This check fails on a conversion to
# an integer type whose argument looks floating (rounding, seconds, a timeout, a scale by 1000 or
# 1e9 …) unless it goes through Sources/NumericClamping (`clampedInt`, `clampedInt64`,
# `clampedUInt64`, `clampedNanoseconds`), is `Int(exactly:)`-style, or its line carries the
# marker `numeric-conversion: checked` with the reason the value is in range.
# It is a text check (no types): it catches the usual spellings, review catches the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

integer='\b(Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|CInt|CLong|CLongLong)\('
floating='rounded|\* *1_?000|1e[0-9]|_000_000|[Ss]econds|[Tt]imeout|[Dd]uration|[Ww]ait|[Dd]elay|[Ii]nterval|[Dd]ouble|[Ff]loat|[Nn]umber|[Mm]illiseconds|[Ll]imit|magnitude|\.squareRoot|ceil|floor|log|pow'
status=0
while IFS= read -r line; do
    file=${line%%:*}
    rest=${line#*:}
    number=${rest%%:*}
    text=${rest#*:}
    case "$text" in *"numeric-conversion: checked"*) continue ;; esac
    # The arguments of each integer conversion on the line (up to the closing parenthesis of
    # simple expressions), judged one by one.
    while IFS= read -r call; do
        [[ -z "$call" ]] && continue
        case "$call" in
            *"(exactly:"* | *"(clamping:"* | *"(truncatingIfNeeded:"* | *"(bitPattern:"* | *"(ascii:"*) continue ;;
        esac
        if [[ "$call" =~ $floating ]]; then
            echo "$file:$number: an unchecked conversion of a floating value to an integer: $call" >&2
            echo "    use clampedInt/clampedInt64/clampedUInt64/clampedNanoseconds (Sources/NumericClamping)," >&2
            echo "    or mark the line 'numeric-conversion: checked' saying why the value is in range" >&2
            status=1
        fi
    done < <(grep -oE "$integer"'([^()]|\([^()]*\))*\)' <<<"$text" || true)
done < <(grep -rnE "$integer" Sources --include='*.swift' | grep -v '^Sources/NumericClamping/')
if [[ $status -eq 0 ]]; then echo "numeric conversions: none unchecked"; fi
exit $status
