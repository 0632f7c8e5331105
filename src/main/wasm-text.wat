;; Decodes the package's wasm from the text the entry inlines (scripts/wasm-text.mjs writes it).
;; It runs in wasm because a JavaScript loop over the ~60,000 characters runs cold, unoptimised,
;; and costs milliseconds. The text's characters are printable ASCII but `"`, `<` and `\`: 92,
;; the alphabet, in code order. Its first 64 characters hold a set of 256 bits, four in each
;; ('A' + bits): the bytes written as one character; each other byte is an escape character and
;; one more. Memory, as `d` and the entry use it: bytes 0-255 the byte of each rank (the set's in
;; ascending order, then the rest), 256-383 each character's alphabet index at 256 + its code,
;; then the wasm (`size` bytes), then the text's characters.
(module
  (memory (export "m") 8)
  (func (export "d") (param $size i32)
    (local $text i32) (local $byte i32) (local $pass i32) (local $rank i32) (local $singles i32) (local $out i32)
    (local.set $text (i32.add (local.get $size) (i32.const 384)))
    (loop $passes
      (local.set $byte (i32.const 0))
      (loop $bytes
        (if (i32.ne (local.get $pass)
              (i32.and (i32.const 1)
                (i32.shr_u
                  (i32.sub (i32.load8_u (i32.add (local.get $text) (i32.shr_u (local.get $byte) (i32.const 2)))) (i32.const 65))
                  (i32.and (local.get $byte) (i32.const 3)))))
          (then
            (i32.store8 (local.get $rank) (local.get $byte))
            (local.set $rank (i32.add (local.get $rank) (i32.const 1)))))
        (br_if $bytes (i32.lt_u (local.tee $byte (i32.add (local.get $byte) (i32.const 1))) (i32.const 256))))
      (if (i32.eqz (local.get $pass)) (then (local.set $singles (local.get $rank))))
      (br_if $passes (i32.lt_u (local.tee $pass (i32.add (local.get $pass) (i32.const 1))) (i32.const 2))))
    ;; The alphabet index: the code less 32, less one for each left-out character below it.
    (local.set $byte (i32.const 32))
    (loop $chars
      (i32.store8 offset=256 (local.get $byte)
        (i32.sub
          (i32.sub (i32.sub (local.get $byte) (i32.const 32)) (i32.gt_u (local.get $byte) (i32.const 34)))
          (i32.add (i32.gt_u (local.get $byte) (i32.const 60)) (i32.gt_u (local.get $byte) (i32.const 92)))))
      (br_if $chars (i32.lt_u (local.tee $byte (i32.add (local.get $byte) (i32.const 1))) (i32.const 128))))
    (local.set $text (i32.add (local.get $text) (i32.const 64)))
    (local.set $out (i32.const 384))
    (loop $decode
      (local.set $rank (i32.load8_u offset=256 (i32.load8_u (local.get $text))))
      (local.set $text (i32.add (local.get $text) (i32.const 1)))
      (if (i32.ge_u (local.get $rank) (local.get $singles))
        (then
          (local.set $rank
            (i32.add
              (i32.add (local.get $singles) (i32.mul (i32.sub (local.get $rank) (local.get $singles)) (i32.const 92)))
              (i32.load8_u offset=256 (i32.load8_u (local.get $text)))))
          (local.set $text (i32.add (local.get $text) (i32.const 1)))))
      (i32.store8 (local.get $out) (i32.load8_u (local.get $rank)))
      (br_if $decode
        (i32.lt_u (local.tee $out (i32.add (local.get $out) (i32.const 1))) (i32.add (local.get $size) (i32.const 384)))))))
