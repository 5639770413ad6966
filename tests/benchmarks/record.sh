# Sourced by the benchmarks: `record NAME "COMMAND" [text|markdown]` sends all the benchmark prints from then
# on to results/bench-NAME/NAME.md too, after a line with the date, this host and the command that made it
# (text output in a code block, Markdown as it is). docs/update.sh copies it into docs/measured/.
record() {
  local name="$1" command="$2" kind="${3:-text}"
  # printf '%q ' of no arguments is '' : a command run without any is written without it.
  command="${command% }"
  command="${command% \'\'}"
  local out="results/bench-$name"
  mkdir -p "$out"
  RECORD_FILE="$out/$name.md"
  local cpu
  cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
  {
    echo "Measured $(date -u +%Y-%m-%d) on this host: $(nproc) cores, ${cpu:-unknown CPU}, $(uname -sr);"
    echo "command: \`$command\`"
    echo
    [ "$kind" = markdown ] || echo '```text'
  } >"$RECORD_FILE"
  exec > >(tee -a "$RECORD_FILE")
  RECORD_TEE=$!
  RECORD_KIND="$kind"
  trap record_end EXIT
}

# At exit: tee has written everything before the code block is closed.
record_end() {
  exec 1>&-
  wait "$RECORD_TEE" 2>/dev/null || true
  [ "$RECORD_KIND" = markdown ] || echo '```' >>"$RECORD_FILE"
}
