#!/usr/bin/env bash
# Builds one libFuzzer target of the Fuzz/ package and runs it.
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer options…]
#
# TARGET: model, mapping, expression, model-cache, metadata or archive (or FuzzModel, FuzzMapping,
# FuzzExpression, FuzzModelCache, FuzzMetadata, FuzzArchive).
# The seed corpus is made at run time in a temporary folder from Models/, Mappings/,
# the tests' fixtures and /work/shared/corpus (or $REMODEL_CORPUS); for model-cache and metadata, the
# Z_MODELCACHE and Z_METADATA of the stores of /work/shared/corpus-coredata (or $REMODEL_CORE_DATA_CORPUS),
# read with python3's sqlite3 and zlib; nothing is
# written into the repository except crash reproducers, which libFuzzer leaves in
# .build-fuzz/artifacts/TARGET/ (git-ignored). Copy a reproducer into
# Tests/RemodelTests/Fixtures/Reliability/Fuzz/TARGET/ once it is fixed: the
# normal test suite replays every file there.
#
# The fuzzer runs under `nice -n 10`; run one target at a time on a shared machine.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=${1:?usage: scripts/fuzz.sh model|mapping|expression|model-cache|metadata|archive SECONDS [libFuzzer options…]}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : $# ))
case "$target" in
    model | FuzzModel) product=FuzzModel ;;
    mapping | FuzzMapping) product=FuzzMapping ;;
    expression | FuzzExpression) product=FuzzExpression ;;
    model-cache | FuzzModelCache) product=FuzzModelCache ;;
    metadata | FuzzMetadata) product=FuzzMetadata ;;
    archive | FuzzArchive) product=FuzzArchive ;;
    *) echo "unknown target '$target': use model, mapping, expression, model-cache, metadata or archive" >&2; exit 2 ;;
esac
shared_corpus=${REMODEL_CORPUS:-$root/../shared/corpus}
[ -d "$shared_corpus" ] || shared_corpus=/work/shared/corpus

flags=(-c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --package-path "$root/Fuzz")
nice -n 10 swift build "${flags[@]}" --product "$product" >&2
binary="$(swift build "${flags[@]}" --show-bin-path)/$product"

work=$(mktemp -d "${TMPDIR:-/tmp}/remodel-fuzz-$product.XXXXXX")
trap 'rm -rf "$work"' EXIT
corpus="$work/corpus"
mkdir -p "$corpus"
artifacts="$root/.build-fuzz/artifacts/$product"
mkdir -p "$artifacts"

seed() {  # copies each file given on standard input into the corpus under a unique name
    local n=0
    while IFS= read -r file; do
        n=$((n + 1))
        cp "$file" "$corpus/seed-$n-$(basename "$file" | tr -c 'A-Za-z0-9._-' '_')"
    done
}
sources=("$root/Models" "$root/Mappings" "$root/Tests/RemodelTests/Fixtures")
[ -d "$shared_corpus" ] && sources+=("$shared_corpus")
dictionary=()
core_data_corpus=${REMODEL_CORE_DATA_CORPUS:-$root/../shared/corpus-coredata}
[ -d "$core_data_corpus" ] || core_data_corpus=/work/shared/corpus-coredata
core_data_seeds() {  # writes each store's Z_MODELCACHE (compressed and inflated) or Z_PLIST into the corpus
    python3 - "$core_data_corpus" "$corpus" "$1" <<'PYTHON'
import glob, os, shutil, sqlite3, sys, tempfile, zlib
folder, corpus, what = sys.argv[1:]
for n, store in enumerate(sorted(glob.glob(folder + "/**/*.sqlite", recursive=True))):
    with tempfile.TemporaryDirectory() as work:
        for suffix in ("", "-wal"):
            if os.path.exists(store + suffix):
                shutil.copy(store + suffix, work + "/s.sqlite" + suffix)
        connection = sqlite3.connect(work + "/s.sqlite")
        try:
            if what == "transformables":  # every keyed archive a table's column holds (Transformable values)
                rows = []
                for (table,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                    for column in [c[1] for c in connection.execute(f'PRAGMA table_info("{table}")')]:
                        rows += connection.execute(
                            f'SELECT "{column}" FROM "{table}" WHERE substr("{column}", 1, 8) = X\'62706C6973743030\' LIMIT 20').fetchall()
            else:
                sql = "SELECT Z_CONTENT FROM Z_MODELCACHE" if what == "model-cache" else "SELECT Z_PLIST FROM Z_METADATA"
                rows = connection.execute(sql).fetchall()
        except sqlite3.Error:
            rows = []
        for (blob,) in rows:
            if blob is None:
                continue
            open(f"{corpus}/store-{n}-{len(os.listdir(corpus))}", "wb").write(blob)
            if what == "model-cache":
                open(f"{corpus}/store-{n}-archive", "wb").write(zlib.decompress(blob, -15))
PYTHON
}
case "$product" in
    FuzzModel)
        find "${sources[@]}" -type f -name contents | seed
        ;;
    FuzzMapping)
        find "${sources[@]}" -type f -name '*.xml' | seed
        ;;
    FuzzModelCache)
        core_data_seeds model-cache
        # Archives with every class Core Data writes in a compiled model (proxies, derived attributes,
        # fetched properties, fetch requests, a class Remodel does not read): CoreDataModelCacheClassesTests.
        find "$root/Tests/RemodelTests/Fixtures/Reliability/Fuzz/model-cache" -type f -name 'classes-*' | seed
        printf '"$objects"\n"$top"\n"$class"\n"$classname"\n"NS.objects"\n"NS.keys"\n"NSEntities"\n"NSProperties"\n"NSEntityName"\n"NSPropertyName"\n"NSAttributeType"\n"NSSuperentity"\n"NSDestinationEntity"\n"NSKnownKeysDictionary1"\n"searchMapping"\n"NSFlagsKey"\n"NSDefaultValue"\n' >"$work/model-cache.dict"
        printf '"_NSPropertyDescriptionProxy"\n"NSUnderlyingProperty"\n"NSDerivedAttributeDescription"\n"NSCompositeAttributeDescription"\n"NSFetchedPropertyDescription"\n"NSFetchRequestTemplates"\n"NSKeyPathExpression"\n"NSSelectorName"\n"NSArguments"\n"NSOperand"\n"NSKeyPath"\n"NSComparisonPredicate"\n' >>"$work/model-cache.dict"
        dictionary=(-dict="$work/model-cache.dict")
        ;;
    FuzzMetadata)
        core_data_seeds metadata
        ;;
    FuzzArchive)
        core_data_seeds transformables
        printf '"$objects"\n"$top"\n"$class"\n"$classname"\n"$classes"\n"NS.objects"\n"NS.keys"\n"NS.time"\n"NS.uuidbytes"\n"NS.relative"\n"NS.base"\n"NSArray"\n"NSDictionary"\n"NSMutableArray"\n"NSSet"\n"NSDate"\n"NSUUID"\n"NSURL"\n"NSNull"\n"root"\n' >"$work/archive.dict"
        # The customClassName spellings the same target parses (ArchivedValueType).
        printf '"[String: "\n"Set<"\n"Array<"\n"Dictionary<String, "\n"UUID"\n"NSURL"\n"Int16"\n"Date"\n' >>"$work/archive.dict"
        dictionary=(-dict="$work/archive.dict")
        ;;
    FuzzExpression)
        # Every value= and filter= of the mapping files, one seed each, plus a few of every construct.
        n=0
        while IFS= read -r expression; do
            n=$((n + 1))
            printf '%s' "$expression" | sed -e 's/&quot;/"/g' -e "s/&apos;/'/g" -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g' >"$corpus/mapping-$n"
        done < <(find "${sources[@]}" -type f -name '*.xml' -exec grep -ohE '(value|filter)="[^"]*"' {} + | sed -E 's/^[a-z]+="(.*)"$/\1/')
        n=0
        while IFS= read -r expression; do
            n=$((n + 1))
            printf '%s' "$expression" >"$corpus/construct-$n"
        done <<'SEEDS'
$source.firstName + ' ' + $source.lastName
trim(lowercase($source.email ?? 'none'))
$source.books.@count > 0 && !($source.yearsSinceBirth == nil)
$source.yearsSinceBirth * 2 / 3 % 4 - -1
$source.yearsSinceBirth > 17 ? 'adult' : 'minor'
substring($source.lastName, 1, 3) + replace($source.firstName, 'a', 'b')
int('12') + double('1.5e3') + length(string(42))
coalesce($source.email, $source.firstName, 'x') + uuid() + string(now())
'x''); DROP TABLE "Person"; --' + "quote \" inside"
9223372036854775807 + 1
1 / 0
1.0 / 0.0
((((((((((1))))))))))
'λ ☃ 😀' + $source.books.@count
SEEDS
        printf '"$source."\n"@count"\n"??"\n"&&"\n"||"\n"lowercase("\n"substring("\n"replace("\n"coalesce("\n"int("\n"double("\n"string("\n"nil"\n"true"\n"9223372036854775807"\n' >"$work/expression.dict"
        dictionary=(-dict="$work/expression.dict")
        ;;
esac
echo "$product: $(ls "$corpus" | wc -l) seeds, ${seconds} s" >&2

nice -n 10 "$binary" "$corpus" ${dictionary[@]+"${dictionary[@]}"} \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$@"
