# Sourced by the per-activity benchmarks: writes DIR/ul_N.yaml for each N given, a no-swap
# uniform_linear scenario of N operators on the phone platform with the pool allocator.
#   write_uniform_linear_scenarios DIR N...
write_uniform_linear_scenarios() {
  local dir=$1 n
  shift
  for n in "$@"; do
    printf 'name: ul\nworkload: {synthetic: uniform_linear, n: %d}\nplatform: %s/configs/phone.yaml\npolicy: {allocator: pool}\n' \
      $((n / 2)) "$PWD" > "$dir/ul_$n.yaml"
  done
}
