/* Check a Swiss round in the visitor's browser, without trusting the program that paired it.

   A line-by-line port of pairing/verify.py (the reference and the spec: same checks, same
   order, same verdicts, same English messages), so a round's public audit page can prove
   that the published pairing is valid and optimal with nothing but this file.

     ArbiterVerify.verify(state, pairing)
       -> {ok: true, proven: {cost, pairs, pair_downs, rematches, bye, players, regime}}
       |  {ok: false, message: "..."}          (the text of Python's Refused)
     ArbiterVerify.summary(proven)             the sentence after "VALID and OPTIMAL: "
     ArbiterVerify.parse(text)                 JSON.parse that keeps integers past 2**53

   ``state`` and ``pairing`` may be the JSON texts (best: the certificate's dual values can
   pass 2**53, which JSON.parse would round, and only the text says that "2.0" is a float
   to Python, refused where verify.py wants an integer) or values already parsed, where a
   whole Number counts as an integer. All cost and dual arithmetic is BigInt. ``cost`` is
   a Number (a float when points are fractional, as in Python), or the exact integer as a
   string when it is past Number.MAX_SAFE_INTEGER.

   Plain script: no module, no eval, no library, so the site's strict CSP lets it run. */
(function () {
  "use strict";

  const FORMAT = "arbiter-swiss-certificate/1";
  const MAX_DENOMINATOR = 1000000n;
  const REMATCH_FREE = "rematch_free";
  const REMATCHES = "fewest_rematches";
  const KEYS = typeof Symbol === "function" ? Symbol("keys") : "__keys__";

  class Refused extends Error {}

  /* A JSON number written with a point or an exponent whose value is whole ("2.0",
     "1e+18"): a float to Python, so not an integer where verify.py asks for one. Only
     parse() makes these; a plain Number that is whole counts as an integer. */
  class PyFloat {
    constructor(value) {
      this.value = value;
      Object.freeze(this);
    }
  }

  /* A number's value as a Number (a PyFloat unwrapped), anything else as it is. */
  function plain(x) {
    return x instanceof PyFloat ? x.value : x;
  }

  // --- Python's view of JSON values ---------------------------------------------------

  function isDict(x) {
    return typeof x === "object" && x !== null && !Array.isArray(x) && !(x instanceof PyFloat);
  }

  function has(obj, key) {
    return Object.prototype.hasOwnProperty.call(obj, key);
  }

  function get(obj, key, fallback) {
    return has(obj, key) ? obj[key] : fallback;
  }

  /* bool(x) in Python: empty containers and zero are false, NaN is true. */
  function truthy(x) {
    x = plain(x);
    if (x === null || x === undefined) return false;
    if (typeof x === "boolean") return x;
    if (typeof x === "number") return x !== 0;
    if (typeof x === "bigint") return x !== 0n;
    if (typeof x === "string") return x.length > 0;
    if (Array.isArray(x)) return x.length > 0;
    return keysOf(x).length > 0;
  }

  /* isinstance(x, int) and not isinstance(x, bool) */
  function isInt(x) {
    return typeof x === "bigint" || (typeof x === "number" && Number.isInteger(x));
  }

  function keysOf(obj) {
    return obj[KEYS] || Object.keys(obj);
  }

  /* What ``for x in value`` walks over, or a refusal where Python would raise TypeError. */
  function iterate(value, where) {
    if (Array.isArray(value)) return value;
    if (typeof value === "string") return Array.from(value);
    if (isDict(value)) return keysOf(value);
    throw new Refused(`${where} must be a list, got ${dumps(value)}`);
  }

  /* A player id as a Map key: a string or an integer, as the engine's contract says
     (true is not the player 1, nor 1.0, nor null, a list or an object); 1 != "1". */
  function idKey(x, where) {
    if (typeof x === "string") return "s" + x;
    if (typeof x === "bigint") return "n" + x.toString();
    if (typeof x === "number" && Number.isInteger(x)) return "n" + BigInt(x).toString();
    throw new Refused(`${where} names ${dumps(x)}, which is not a player id`);
  }

  /* json.dumps(x) as Python writes it: ", " and ": ", non-ASCII escaped, float repr. */
  function dumps(x) {
    if (x instanceof PyFloat) return floatRepr(x.value);
    if (x === null || x === undefined) return "null";
    if (typeof x === "boolean") return x ? "true" : "false";
    if (typeof x === "bigint") return x.toString();
    if (typeof x === "number") {
      if (Number.isNaN(x)) return "NaN";
      if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
      return Number.isInteger(x) ? BigInt(x).toString() : floatRepr(x);
    }
    if (typeof x === "string") return dumpString(x);
    if (Array.isArray(x)) return "[" + x.map(dumps).join(", ") + "]";
    return "{" + keysOf(x).map((k) => dumpString(k) + ": " + dumps(x[k])).join(", ") + "}";
  }

  const NAMED = { 34: '\\"', 92: "\\\\", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t" };

  function dumpString(s) {
    let out = '"';
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (NAMED[c]) out += NAMED[c];
      else if (c >= 0x20 && c <= 0x7e) out += s[i];
      else out += "\\u" + c.toString(16).padStart(4, "0");
    }
    return out + '"';
  }

  /* repr(float): the shortest digits, fixed notation for exponents -4..15, else "1e+16". */
  function floatRepr(x) {
    if (Number.isNaN(x)) return "nan";
    if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
    const sign = x < 0 || Object.is(x, -0) ? "-" : "";
    const [mantissa, exponent] = Math.abs(x).toExponential().split("e");
    const digits = mantissa.replace(".", "");
    const exp = Number(exponent);
    if (exp < -4 || exp >= 16) {
      const head = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
      const power = String(Math.abs(exp)).padStart(2, "0");
      return sign + head + "e" + (exp < 0 ? "-" : "+") + power;
    }
    if (exp < 0) return sign + "0." + "0".repeat(-exp - 1) + digits;
    if (digits.length <= exp + 1) return sign + digits + "0".repeat(exp + 1 - digits.length) + ".0";
    return sign + digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
  }

  // --- exact numbers ------------------------------------------------------------------

  function abs(a) {
    return a < 0n ? -a : a;
  }

  function gcd(a, b) {
    a = abs(a);
    b = abs(b);
    while (b) [a, b] = [b, a % b];
    return a;
  }

  /* Fraction(repr(x)): the float's shortest decimal, as an exact [numerator, denominator]. */
  function exactFraction(x) {
    if (typeof x === "bigint") return [x, 1n];
    const [mantissa, exponent] = x.toExponential().split("e");
    const negative = mantissa[0] === "-";
    const digits = mantissa.replace("-", "").replace(".", "");
    const power = Number(exponent) - (digits.length - 1);
    let num = BigInt(digits) * (negative ? -1n : 1n);
    let den = 1n;
    if (power >= 0) num *= 10n ** BigInt(power);
    else den = 10n ** BigInt(-power);
    const g = gcd(num, den) || 1n;
    return [num / g, den / g];
  }

  /* floor(n / d) for d > 0 (BigInt division truncates toward zero). */
  function floorDiv(n, d) {
    const q = n / d;
    return n % d !== 0n && n < 0n ? q - 1n : q;
  }

  /* round(Fraction(n, d)) in Python: to the nearest integer, halves to even. */
  function roundHalfEven(n, d) {
    const q = floorDiv(n, d);
    const twice = 2n * (n - q * d);
    if (twice > d || (twice === d && q % 2n !== 0n)) return q + 1n;
    return q;
  }

  function bitLength(n) {
    return n === 0n ? 0 : n.toString(2).length;
  }

  /* float(Fraction(n, d)) for d > 0: correctly rounded (half to even), as Python does. */
  function toFloat(n, d) {
    if (n === 0n) return 0;
    const negative = n < 0n;
    n = abs(n);
    const shift = 64 - (bitLength(n) - bitLength(d));
    let q;
    let rest;
    if (shift >= 0) {
      q = (n << BigInt(shift)) / d;
      rest = (n << BigInt(shift)) % d;
    } else {
      q = n / (d << BigInt(-shift));
      rest = n % (d << BigInt(-shift));
    }
    const extra = bitLength(q) - 53;
    let mant = q >> BigInt(extra);
    const dropped = q & ((1n << BigInt(extra)) - 1n);
    const half = 1n << BigInt(extra - 1);
    if (dropped > half || (dropped === half && (rest !== 0n || (mant & 1n) === 1n))) mant += 1n;
    const value = Number(mant) * Math.pow(2, extra - shift);
    return negative ? -value : value;
  }

  // --- JSON that keeps big integers ---------------------------------------------------

  /* JSON.parse, except that an integer past 2**53 becomes a BigInt (exact), objects keep
     their key order for messages, and Python's NaN / Infinity literals are read. */
  const UNESCAPE = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

  function parse(text) {
    let i = 0;
    const fail = (what) => {
      throw new SyntaxError(`${what} at position ${i}`);
    };
    const space = () => {
      while (i < text.length && " \t\n\r".includes(text[i])) i++;
    };
    const literal = (word, value) => {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
      return fail("unexpected character");
    };
    const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    function value() {
      space();
      const c = text[i];
      if (c === "{") return object();
      if (c === "[") return array();
      if (c === '"') return string();
      if (c === "t") return literal("true", true);
      if (c === "f") return literal("false", false);
      if (c === "n") return literal("null", null);
      if (c === "N") return literal("NaN", NaN);
      if (c === "I") return literal("Infinity", Infinity);
      if (c === "-" && text[i + 1] === "I") return literal("-Infinity", -Infinity);
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) return fail("unexpected character");
      i += match[0].length;
      if (match[1] === undefined && match[2] === undefined) {
        const number = Number(match[0]);
        return Number.isSafeInteger(number) ? number : BigInt(match[0]);
      }
      const number = Number(match[0]);
      return Number.isInteger(number) ? new PyFloat(number) : number;
    }
    function string() {
      let out = "";
      i++;
      for (;;) {
        const c = text[i];
        if (c === undefined) return fail("unterminated string");
        if (c === '"') break;
        if (c === "\\") {
          const e = text[i + 1];
          if (has(UNESCAPE, e)) {
            out += UNESCAPE[e];
            i += 2;
          } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
            i += 6;
          } else {
            return fail("bad escape");
          }
        } else if (c < " ") {
          return fail("control character in string");
        } else {
          out += c;
          i++;
        }
      }
      i++;
      return out;
    }
    function array() {
      const out = [];
      i++;
      space();
      if (text[i] === "]") {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        space();
        if (text[i] === ",") i++;
        else if (text[i] === "]") {
          i++;
          return out;
        } else return fail("expected , or ]");
      }
    }
    function object() {
      const out = Object.create(null);
      const keys = [];
      i++;
      space();
      if (text[i] === "}") {
        i++;
      } else {
        for (;;) {
          space();
          if (text[i] !== '"') return fail("expected a key");
          const key = string();
          space();
          if (text[i] !== ":") return fail("expected :");
          i++;
          if (!(key in out)) keys.push(key);
          out[key] = value();
          space();
          if (text[i] === ",") i++;
          else if (text[i] === "}") {
            i++;
            break;
          } else return fail("expected , or }");
        }
      }
      Object.defineProperty(out, KEYS, { value: keys, enumerable: false });
      return out;
    }
    const result = value();
    space();
    if (i < text.length) fail("extra data");
    return result;
  }

  // --- the field ----------------------------------------------------------------------

  /* The round's players as the checker sees them: rank order, integer points, history. */
  class Field {
    constructor(state) {
      if (!isDict(state) || !Array.isArray(get(state, "players"))) {
        throw new Refused('the state must be an object with a "players" list');
      }
      const active = [];
      state.players.forEach((raw, i) => {
        if (!isDict(raw) || !has(raw, "id") || !has(raw, "points")) {
          throw new Refused(`players[${i}] must be an object with an id and points`);
        }
        if (!truthy(get(raw, "dropped", false))) active.push(raw);
      });
      const [scale, scaled] = scaledPoints(active.map((p) => p.points));
      this.scale = scale;
      const order = active.map((_, i) => i);
      order.sort((i, j) => (scaled[i] > scaled[j] ? -1 : scaled[i] < scaled[j] ? 1 : 0));
      this.players = order.map((i) => active[i]);
      this.points = order.map((i) => scaled[i]);
      this.ids = this.players.map((p) => p.id);
      this.index = new Map();
      this.ids.forEach((pid, v) => this.index.set(idKey(pid, "the state's players"), v));
      this.dropped = new Set();
      for (const p of state.players) {
        if (truthy(get(p, "dropped", false))) this.dropped.add(idKey(p.id, "a dropped player"));
      }
      this.hadBye = this.players.map((p) => truthy(get(p, "had_bye", false)));
      this.met = this.symmetric("opponents");
      this.keptApart = this.symmetric("avoid");
      this.forbidden = this.met.map((m, v) => new Set([...m, ...this.keptApart[v]]));
    }

    symmetric(key) {
      const out = this.ids.map(() => new Set());
      this.players.forEach((player, v) => {
        let others = get(player, key, []);
        if (!truthy(others)) others = [];
        for (const other of iterate(others, `${dumps(player.id)}'s "${key}"`)) {
          const w = this.index.get(idKey(other, `${dumps(player.id)}'s "${key}"`));
          if (w !== undefined && w !== v) {
            out[v].add(w);
            out[w].add(v);
          }
        }
      });
      return out;
    }

    lookup(pid, where) {
      return this.index.get(idKey(pid, where));
    }

    show(v) {
      return v === null ? "the bye" : dumps(this.ids[v]);
    }
  }

  /* Points as integers times a common denominator (at most 10**6), so costs are exact. */
  function scaledPoints(values) {
    if (values.every(isInt)) return [1n, values.map((v) => BigInt(v))];
    const exact = values.map((v) => {
      if (typeof v === "bigint") return [v, 1n];
      if (v instanceof PyFloat) return exactFraction(v.value);
      if (typeof v !== "number" || !Number.isFinite(v)) {
        throw new Refused(`points must be finite numbers, got ${dumps(v)}`);
      }
      return exactFraction(v);
    });
    let scale = 1n;
    for (const [, den] of exact) {
      scale = (scale / gcd(scale, den)) * den;
      if (scale > MAX_DENOMINATOR) {
        scale = MAX_DENOMINATOR;
        break;
      }
    }
    return [scale, exact.map(([num, den]) => roundHalfEven(num * scale, den))];
  }

  // --- validity -----------------------------------------------------------------------

  /* The pairs (higher-ranked first) and the bye as field positions, or refuse naming the
     first player who is missing, doubled, dropped or unknown. */
  function readPairing(field, pairing) {
    if (!isDict(pairing) || !Array.isArray(get(pairing, "pairings"))) {
      throw new Refused('the pairing must be an object with a "pairings" list');
    }
    const seen = new Map();
    function place(pid, where) {
      if (field.dropped.has(idKey(pid, where))) {
        throw new Refused(`${dumps(pid)} has dropped but is ${where}`);
      }
      const v = field.lookup(pid, where);
      if (v === undefined) {
        throw new Refused(`${dumps(pid)} is ${where} but is not a player of this round`);
      }
      if (seen.has(v)) throw new Refused(`${dumps(pid)} is ${where} and also ${seen.get(v)}`);
      seen.set(v, where);
      return v;
    }
    const pairs = [];
    pairing.pairings.forEach((pair, k) => {
      if (!Array.isArray(pair) || pair.length !== 2) {
        throw new Refused(`pairings[${k}] must be a list of two player ids`);
      }
      const a = place(pair[0], `at table ${k + 1}`);
      const b = place(pair[1], `at table ${k + 1}`);
      pairs.push(a < b ? [a, b] : [b, a]);
    });
    const bye = get(pairing, "bye", null);
    const byeV = bye === null || bye === undefined ? null : place(bye, "given the bye");
    for (let v = 0; v < field.ids.length; v++) {
      if (!seen.has(v)) {
        throw new Refused(`${field.show(v)} is active but neither paired nor given the bye`);
      }
    }
    if (byeV !== null && field.ids.length % 2 === 0) {
      throw new Refused("an even number of players, yet someone has the bye");
    }
    return [pairs, byeV];
  }

  /* Who should have the bye, in order: lowest-ranked without one, then with one. */
  function byeCandidates(field) {
    const order = field.ids.map((_, v) => v).reverse();
    return order.filter((v) => !field.hadBye[v]).concat(order.filter((v) => field.hadBye[v]));
  }

  /* Refuse unless removing ``leftOut`` and ``barrier`` leaves more odd components (over
     pairs allowed to meet) than the barrier has players: Tutte's proof that the rest
     cannot be paired without a rematch. */
  function checkBarrier(field, leftOut, barrier) {
    const removed = new Set(barrier);
    removed.add(leftOut);
    const rest = field.ids.map((_, v) => v).filter((v) => !removed.has(v));
    const odd = componentSizes(rest, field.forbidden).filter((size) => size % 2).length;
    if (odd <= barrier.length) {
      throw new Refused(
        `the bye passes over ${field.show(leftOut)}, but the barrier given leaves ` +
          `${odd} odd groups for ${barrier.length} barrier players: it proves nothing`
      );
    }
  }

  /* Connected components of the graph where every pair is joined unless forbidden. */
  function componentSizes(vertices, forbidden) {
    const unvisited = new Set(vertices);
    const sizes = [];
    while (unvisited.size) {
      const start = unvisited.values().next().value;
      unvisited.delete(start);
      const stack = [start];
      let size = 1;
      while (stack.length) {
        const v = stack.pop();
        const reach = [];
        for (const w of unvisited) if (!forbidden[v].has(w)) reach.push(w);
        for (const w of reach) unvisited.delete(w);
        for (const w of reach) stack.push(w);
        size += reach.length;
      }
      sizes.push(size);
    }
    return sizes;
  }

  /* The bye went to the right player, every lower candidate passed over with a proof. */
  function checkBye(field, bye, certificate) {
    if (bye === null) return;
    const candidates = byeCandidates(field);
    const barriers = new Map();
    const where = 'the certificate\'s "bye_barriers"';
    for (const entry of iterate(get(certificate, "bye_barriers", []), where)) {
      if (!Array.isArray(entry) || entry.length !== 2 || !Array.isArray(entry[1])) {
        throw new Refused("bye_barriers entries must be [player, [barrier players]]");
      }
      const v = field.lookup(entry[0], "bye_barriers");
      if (v === undefined || entry[1].some((w) => field.lookup(w, "bye_barriers") === undefined)) {
        throw new Refused(`bye_barriers names someone who is not playing: ${dumps(entry)}`);
      }
      barriers.set(v, entry[1].map((w) => field.lookup(w, "bye_barriers")));
    }
    for (const v of candidates) {
      if (v === bye) return;
      if (!barriers.has(v)) {
        throw new Refused(
          `the bye went to ${field.show(bye)}, but ${field.show(v)} comes first for it ` +
            "and no proof says the rest could not then be paired"
        );
      }
      checkBarrier(field, v, barriers.get(v));
    }
  }

  // --- the cost -----------------------------------------------------------------------

  /* What a pair costs, in integers (see Costs in pairing/verify.py). */
  class Costs {
    constructor(field, vertices, regime) {
      const distinct = [...new Set(vertices.map((v) => field.points[v]))];
      const levels = distinct.sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
      this.levelOf = new Map(levels.map((p, i) => [p, i]));
      this.levels = BigInt(levels.length);
      const pairs = BigInt(Math.floor(vertices.length / 2) + 1);
      const spread = levels.length ? levels[0] - levels[levels.length - 1] : 0n;
      this.unit = pairs * (this.levels > 1n ? this.levels - 1n : 0n) + 1n;
      const most = pairs * (spread * spread * this.unit + this.levels);
      this.regime = regime;
      this.bye = most + 1n;
      this.rematch = regime === REMATCHES ? BigInt(vertices.length + 1) * this.bye + most + 1n : 0n;
    }

    /* The cost of a pair between these points (higher first), without history. */
    groupPair(higher, lower) {
      if (higher === lower) return 0n;
      const gap = higher - lower;
      return gap * gap * this.unit + this.levels - 1n - BigInt(this.levelOf.get(higher));
    }
  }

  // --- the certificate ----------------------------------------------------------------

  /* The dual values read from JSON onto field positions; the bye vertex is -1. */
  class Certificate {
    constructor(field, data, vertices, withBye) {
      if (!isDict(data) || get(data, "format") !== FORMAT) {
        throw new Refused(`the pairing has no certificate in the format "${FORMAT}"`);
      }
      this.regime = get(data, "regime", REMATCH_FREE);
      if (this.regime !== REMATCH_FREE && this.regime !== REMATCHES) {
        throw new Refused(`unknown certificate regime ${dumps(this.regime)}`);
      }
      const inside = new Set(vertices);
      this.y = new Array(field.ids.length).fill(0n);
      this.yBye = 0n;
      for (const entry of list(data, "potentials")) {
        const [pid, value] = pairEntry(entry, "potentials");
        const v = this.vertex(field, pid, inside, withBye, "potentials");
        if (v === -1) this.yBye = BigInt(value);
        else this.y[v] = BigInt(value);
      }
      this.leafOf = new Array(field.ids.length).fill(-1);
      this.leafBye = -1;
      this.z = [];
      const blossoms = list(data, "blossoms");
      this.parent = blossoms.map(() => -1);
      const leaves = [];
      blossoms.forEach((blossom, i) => {
        if (!isDict(blossom)) throw new Refused(`blossoms[${i}] must be an object`);
        const z = get(blossom, "z");
        if (!isInt(z) || z < 0) {
          throw new Refused(`blossoms[${i}] has a negative or non-integer value z`);
        }
        this.z.push(BigInt(z));
        for (const pid of iterate(get(blossom, "players", []), `blossoms[${i}]'s "players"`)) {
          const v = this.vertex(field, pid, inside, withBye, `blossoms[${i}]`);
          if ((v === -1 ? this.leafBye : this.leafOf[v]) !== -1) {
            throw new Refused(`${dumps(pid)} is listed in two blossoms (they must nest)`);
          }
          if (v === -1) this.leafBye = i;
          else this.leafOf[v] = i;
          leaves.push(i);
        }
        for (const j of iterate(get(blossom, "blossoms", []), `blossoms[${i}]'s "blossoms"`)) {
          if (!isInt(j) || !(j >= 0 && j < blossoms.length) || Number(j) === i) {
            throw new Refused(`blossoms[${i}] holds an unknown blossom ${dumps(j)}`);
          }
          const k = Number(j);
          if (this.parent[k] !== -1) {
            throw new Refused(`blossoms[${k}] is held by two blossoms (they must nest)`);
          }
          this.parent[k] = i;
        }
      });
      this.orderTree();
      this.size = blossoms.map(() => 0);
      for (const i of leaves) this.size[i] += 1;
      for (let k = this.order.length - 1; k >= 0; k--) {
        const i = this.order[k];
        if (this.parent[i] !== -1) this.size[this.parent[i]] += this.size[i];
      }
      this.size.forEach((size, i) => {
        if (size % 2 === 0) {
          throw new Refused(`blossoms[${i}] holds ${size} players, an even number`);
        }
      });
    }

    vertex(field, pid, inside, withBye, where) {
      if (pid === null && withBye) return -1;
      const v = field.lookup(pid, where);
      if (v === undefined || !inside.has(v)) {
        throw new Refused(`${where} names ${dumps(pid)}, who is not paired this round`);
      }
      return v;
    }

    /* Blossoms root first; refuse a cycle. Also the sum of z from each root down. */
    orderTree() {
      const children = this.z.map(() => []);
      const roots = [];
      this.parent.forEach((p, i) => (p === -1 ? roots : children[p]).push(i));
      this.order = [];
      this.depth = this.z.map(() => 0);
      this.total = this.z.map(() => 0n);
      const stack = roots.slice();
      while (stack.length) {
        const i = stack.pop();
        this.order.push(i);
        const parent = this.parent[i];
        this.depth[i] = parent === -1 ? 0 : this.depth[parent] + 1;
        this.total[i] = this.z[i] + (parent === -1 ? 0n : this.total[parent]);
        for (const child of children[i]) stack.push(child);
      }
      if (this.order.length !== this.z.length) {
        throw new Refused("the blossoms hold each other in a cycle");
      }
    }

    /* The sum of z over the blossoms holding both blossom ``a`` and ``b`` (or -1). */
    shared(a, b) {
      if (a === -1 || b === -1) return 0n;
      const depth = this.depth;
      const parent = this.parent;
      while (depth[a] > depth[b]) a = parent[a];
      while (depth[b] > depth[a]) b = parent[b];
      while (a !== b) {
        a = parent[a];
        b = parent[b];
        if (a === -1) return 0n;
      }
      return this.total[a];
    }

    leaf(v) {
      return v === -1 ? this.leafBye : this.leafOf[v];
    }

    dual(v) {
      return v === -1 ? this.yBye : this.y[v];
    }

    /* Twice the lower bound the certificate proves (over the vertices of the check). */
    objective(vertices, withBye) {
      let inside = 0n;
      this.z.forEach((z, i) => {
        inside += floorDiv(z * BigInt(this.size[i] - 1), 2n);
      });
      let sum = withBye ? this.yBye : 0n;
      for (const v of vertices) sum += this.y[v];
      return sum - inside;
    }
  }

  function list(data, key) {
    const value = get(data, key, []);
    if (!Array.isArray(value)) throw new Refused(`the certificate's "${key}" must be a list`);
    return value;
  }

  function pairEntry(entry, where) {
    if (!Array.isArray(entry) || entry.length !== 2 || !isInt(entry[1])) {
      throw new Refused(`${where} entries must be [player, integer], got ${dumps(entry)}`);
    }
    return [entry[0], entry[1]];
  }

  /* Up to ``limit`` allowed pairs [a, b] whose dual constraint fails, best first: per
     class of equal points, dual value and innermost blossom (see violations in
     pairing/verify.py for why this is exact). */
  function violations(field, vertices, costs, cert, limit) {
    const points = field.points;
    const forbidden = field.forbidden;
    const classes = new Map();
    for (const v of vertices) {
      const key = `${points[v]}|${cert.y[v]}|${cert.leafOf[v]}`;
      let members = classes.get(key);
      if (!members) {
        members = { p: points[v], y: cert.y[v], leaf: cert.leafOf[v], members: [] };
        classes.set(key, members);
      }
      members.members.push(v);
    }
    const keys = [...classes.values()];
    const classOf = new Map();
    keys.forEach((entry, c) => entry.members.forEach((v) => classOf.set(v, c)));
    const byLevel = new Map();
    keys.forEach((entry, c) => {
      if (!byLevel.has(entry.p)) byLevel.set(entry.p, []);
      byLevel.get(entry.p).push(c);
    });
    for (const members of byLevel.values()) {
      members.sort((c, d) => (keys[c].y > keys[d].y ? -1 : keys[c].y < keys[d].y ? 1 : 0));
    }
    const levels = [...byLevel.keys()].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
    const blocked = new Map();
    const found = [];
    const rematches = costs.regime === REMATCHES;
    for (let c = 0; c < keys.length; c++) {
      const { p: pc, y: yc, leaf: leafC } = keys[c];
      for (const level of levels) {
        if (level > pc) continue;
        const base = 2n * costs.groupPair(pc, level);
        for (const d of byLevel.get(level)) {
          const { y: yd, leaf: leafD } = keys[d];
          if (yc + yd <= base) break;
          if (level === pc && d < c) continue;
          const value = yc + yd - cert.shared(leafC, leafD);
          if (value <= base) continue;
          const first = keys[c].members;
          const second = keys[d].members;
          let pair = allowedPair(first, second, c === d, forbidden, blocked, classOf, c, d);
          if (pair === null && rematches) {
            pair = costlyRematch(first, second, forbidden, value, base, costs);
          }
          if (pair !== null) found.push(pair);
          if (found.length >= limit) return found;
        }
      }
    }
    return found;
  }

  /* A pair between two classes that may meet, or null if every such pair is forbidden. */
  function allowedPair(first, second, same, forbidden, blocked, classOf, c, d) {
    const count = same ? (first.length * (first.length - 1)) / 2 : first.length * second.length;
    if (!blocked.has(c)) {
      const tally = new Map();
      for (const v of first) {
        for (const w of forbidden[v]) {
          const other = classOf.get(w);
          if (other !== undefined) tally.set(other, (tally.get(other) || 0) + 1);
        }
      }
      blocked.set(c, tally);
    }
    let forbiddenPairs = blocked.get(c).get(d) || 0;
    if (same) forbiddenPairs = Math.floor(forbiddenPairs / 2);
    if (forbiddenPairs >= count) return null;
    for (const v of first) {
      for (const w of second) {
        if (w !== v && !forbidden[v].has(w)) return v < w ? [v, w] : [w, v];
      }
    }
    return null;
  }

  function costlyRematch(first, second, forbidden, value, base, costs) {
    if (value <= base + 2n * costs.rematch) return null;
    for (const v of first) {
      for (const w of second) {
        if (w !== v && forbidden[v].has(w)) return v < w ? [v, w] : [w, v];
      }
    }
    return null;
  }

  // --- the whole check ----------------------------------------------------------------

  /* Check one round; return what was proven, or throw Refused. */
  function check(state, pairing) {
    const field = new Field(state);
    const [pairs, bye] = readPairing(field, pairing);
    const certificate = get(pairing, "certificate");
    if (!isDict(certificate)) throw new Refused("the pairing carries no certificate");
    const regime = get(certificate, "regime", REMATCH_FREE);
    let vertices;
    let withBye;
    if (regime === REMATCH_FREE) {
      for (const [a, b] of pairs) {
        if (field.met[a].has(b)) {
          throw new Refused(`rematch: ${field.show(a)} and ${field.show(b)} have met before`);
        }
        if (field.keptApart[a].has(b)) {
          throw new Refused(
            `${field.show(a)} and ${field.show(b)} are kept apart by the organiser`
          );
        }
      }
      checkBye(field, bye, certificate);
      vertices = field.ids.map((_, v) => v).filter((v) => v !== bye);
      withBye = false;
    } else {
      vertices = field.ids.map((_, v) => v);
      withBye = vertices.length % 2 === 1;
    }
    const costs = new Costs(field, vertices, regime);
    const cert = new Certificate(field, certificate, vertices, withBye);
    let found = violations(field, vertices, costs, cert, 1);
    if (withBye && !found.length) found = byeViolations(field, costs, cert);
    if (found.length) {
      const [a, b] = found[0];
      throw new Refused(
        `the certificate does not hold for the pair (${field.show(a)}, ${field.show(b)}): ` +
          "their dual values exceed what the pair would cost, so it proves nothing"
      );
    }
    let total = 0n;
    let gap = 0n;
    for (const [a, b] of pairs) {
      let cost = costs.groupPair(field.points[a], field.points[b]);
      if (field.forbidden[a].has(b)) cost += costs.rematch;
      total += cost;
      const diff = field.points[a] - field.points[b];
      gap += diff * diff;
    }
    if (withBye) total += costs.bye * BigInt(byeCandidates(field).indexOf(bye));
    const bound = cert.objective(vertices, withBye);
    if (bound !== 2n * total) {
      throw new Refused(whyNotTight(field, pairs, costs, cert, bound, total));
    }
    let cost;
    let costText;
    if (field.scale === 1n) {
      cost = Number.isSafeInteger(Number(gap)) ? Number(gap) : gap.toString();
      costText = gap.toString();
    } else {
      cost = toFloat(gap, field.scale * field.scale);
      costText = floatRepr(cost);
    }
    const proven = {
      cost: cost,
      pairs: pairs.length,
      pair_downs: pairs.filter(([a, b]) => field.points[a] !== field.points[b]).length,
      rematches: pairs.filter(([a, b]) => field.forbidden[a].has(b)).length,
      bye: bye === null ? null : plain(field.ids[bye]),
      players: field.ids.length,
      regime: regime,
    };
    Object.defineProperty(proven, "cost_text", { value: costText, enumerable: false });
    Object.defineProperty(proven, "bye_text", {
      value: bye === null ? null : dumps(field.ids[bye]),
      enumerable: false,
    });
    return proven;
  }

  function byeViolations(field, costs, cert) {
    const order = byeCandidates(field);
    for (let k = 0; k < order.length; k++) {
      const v = order[k];
      const value = cert.y[v] + cert.yBye - cert.shared(cert.leafOf[v], cert.leafBye);
      if (value > 2n * BigInt(k) * costs.bye) return [[v, v]];
    }
    return [];
  }

  /* Name the matched pair or blossom that keeps the bound below the pairing's cost. */
  function whyNotTight(field, pairs, costs, cert, bound, total) {
    for (const [a, b] of pairs) {
      const cost = costs.groupPair(field.points[a], field.points[b]);
      const value = cert.y[a] + cert.y[b] - cert.shared(cert.leafOf[a], cert.leafOf[b]);
      if (value !== 2n * cost && !field.forbidden[a].has(b)) {
        return (
          `the pair (${field.show(a)}, ${field.show(b)}) is not tight in the certificate, ` +
          "so it proves only a lower cost than the pairing's"
        );
      }
    }
    for (let i = 0; i < cert.z.length; i++) {
      if (cert.z[i] > 0n) {
        return `blossoms[${i}] has a positive value but is not full, so it proves nothing`;
      }
    }
    const half = floatRepr(toFloat(bound, 2n));
    return `the certificate proves a bound of ${half}, not the pairing's cost ${total}`;
  }

  function read(document) {
    return typeof document === "string" ? parse(document) : document;
  }

  /* The verdict as a value: {ok: true, proven} or {ok: false, message}. A JSON text that
     cannot be read is refused too, naming which of the two it was. */
  function verify(state, pairing) {
    let documents;
    try {
      documents = [read(state), null];
    } catch (error) {
      return { ok: false, message: `cannot read the state: ${error.message}` };
    }
    try {
      documents[1] = read(pairing);
    } catch (error) {
      return { ok: false, message: `cannot read the pairing: ${error.message}` };
    }
    try {
      return { ok: true, proven: check(documents[0], documents[1]) };
    } catch (error) {
      if (error instanceof Refused) return { ok: false, message: error.message };
      throw error;
    }
  }

  /* The sentence the Python CLI prints after "VALID and OPTIMAL: ". */
  function summary(proven) {
    const byeText = proven.bye_text !== undefined ? proven.bye_text : dumps(proven.bye);
    const bye = proven.bye === null || proven.bye === undefined ? "" : `, bye to ${byeText}`;
    let cost = proven.cost_text;
    if (cost === undefined) {
      cost = typeof proven.cost === "number" ? dumps(proven.cost) : String(proven.cost);
    }
    return (
      `${proven.pairs} pairs${bye}, ${proven.pair_downs} pair-downs, ` +
      `proven cost ${cost} (sum of squared points differences; no valid pairing ` +
      "costs less, and none as cheap has its pair-downs lower in the standings)"
    );
  }

  window.ArbiterVerify = Object.freeze({ verify, summary, parse, FORMAT });
})();
