#!/usr/bin/env bash
# scripts/sync-key-value-store.sh KVS_ARN [FILE]
# Brings a CloudFront KeyValueStore to what the build's import file (default
# dist/_cloudfront/key-value-store.json) holds: puts the keys that are new or whose value changed,
# then deletes the keys the file no longer has, 50 at a time (update-keys takes at most 50).
# Needs the AWS CLI and jq. Each call names the store's current ETag, as update-keys requires.
set -euo pipefail
arn=${1:?usage: sync-key-value-store.sh KVS_ARN [FILE]}
file=${2:-dist/_cloudfront/key-value-store.json}

current=$(mktemp)
trap 'rm -f "$current"' EXIT
aws cloudfront-keyvaluestore list-keys --kvs-arn "$arn" --output json > "$current"
etag=$(aws cloudfront-keyvaluestore describe-key-value-store --kvs-arn "$arn" --query ETag --output text)

# One line a call: "puts [...]" or "deletes [...]".
changes=$(jq -r --slurpfile current "$current" '
  def batches: if length > 50 then .[:50], (.[50:] | batches) elif length > 0 then . else empty end;
  ([$current[0].Items[]? | {(.Key): .Value}] | add // {}) as $old
  | ([.data[] | {(.key): .value}] | add // {}) as $new
  | ([.data[] | select($old[.key] != .value) | {Key: .key, Value: .value}] | batches | "puts \(tojson)"),
    ([$old | keys[] | select(. as $key | $new | has($key) | not) | {Key: .}] | batches | "deletes \(tojson)")
' "$file")

count=0
while read -r operation batch; do
  [ -n "$operation" ] || continue
  etag=$(aws cloudfront-keyvaluestore update-keys --kvs-arn "$arn" --if-match "$etag" "--$operation" "$batch" --query ETag --output text)
  count=$((count + 1))
done <<< "$changes"
echo "key value store: $count update-keys calls"
