// A client of the capturefast engine protocol (docs/protocol.md) in another language than the
// engine's, with Node's built-in modules only. It spawns the engine, plays complete hands of
// each game against it (this client plays seat 0 by a rule of its own, the engine every other
// seat), checks that every `bestmove` is one of the moves `legal` lists, checks `stop`, the
// score report and the error answers, and prints one line per check.
//
//   node tests/protocol/client.mjs [ENGINE_COMMAND ...]     (default: capturefast engine)
//
// Exit status 0 when every check passed, 1 otherwise.

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";

const command = process.argv.length > 2 ? process.argv.slice(2) : ["capturefast", "engine"];
const engine = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
const lines = [];
const waiting = [];
createInterface({ input: engine.stdout }).on("line", (line) => {
  if (waiting.length) waiting.shift()(line);
  else lines.push(line);
});

/** The next line the engine writes, or a failure after `ms` milliseconds. */
function next(ms = 20000) {
  if (lines.length) return Promise.resolve(lines.shift());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    waiting.push((line) => {
      clearTimeout(timer);
      resolve(line);
    });
  });
}

function send(text) {
  engine.stdin.write(text + "\n");
}

/** Sends `text` and reads lines until one starts with one of `finals`; returns all of them. */
async function ask(text, finals, ms) {
  send(text);
  const got = [];
  for (;;) {
    const line = await next(ms);
    got.push(line);
    const word = line.split(" ")[0];
    if (word === "error" && !finals.includes("error")) {
      throw new Error(`${text} -> ${line}`);
    }
    if (finals.includes(word)) return got;
  }
}

/** The moves of a `legal` answer: a comma-separated list after the word. */
async function legal() {
  const [line] = await ask("legal", ["legal"]);
  const rest = line.slice("legal".length).trim();
  return rest === "" ? [] : rest.split(", ");
}

let passed = 0;
let failed = 0;
async function check(name, body) {
  try {
    await body();
    passed += 1;
    console.log(`ok ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`FAILED ${name}: ${e.message}`);
  }
}

/** Seat 0's own rule: the move capturing the most cards, the first of them on a tie. */
function mostCards(moves) {
  const size = (m) => (m.includes(" x ") ? m.split(" x ")[1].split("+").length : 0);
  return moves.reduce((best, m) => (size(m) > size(best) ? m : best), moves[0]);
}

/** Plays one whole hand: seat 0 by `mostCards`, the others by the engine's `go`. With
 * `views`, the engine searches each of its moves from the view line of the seat to move, as a
 * bot that is sent only what its seat sees would, and the client restores the whole position
 * from its notation line before playing the move. */
async function playHand(preset, players, seed, views = false) {
  await ask(`rules ${preset} players ${players}`, ["ok"]);
  await ask(`position deal seed ${seed}`, ["ok"]);
  let plies = 0;
  for (;;) {
    const moves = await legal();
    if (moves.length === 0) break;
    const [status] = await ask("status", ["status"]);
    const seat = Number(/ to_move (\d+)/.exec(status)[1]);
    let move;
    if (seat === 0) {
      move = mostCards(moves);
    } else {
      let whole;
      if (views) {
        [whole] = await ask("notation", ["notation"]);
        const [view] = await ask("notation view", ["notation"]);
        assert.match(view, / seat=\d+ /, "a view line names its seat");
        await ask(`position ${view}`, ["ok"]);
        const again = await legal();
        assert.deepEqual(again, moves, "the view has the position's legal moves");
      }
      // Every third engine move comes from a named bot, the others from a search.
      const go = plies % 3 === 2 ? "go bot expert" : "go worlds 8";
      const answer = await ask(go, ["bestmove"]);
      if (views) await ask(`position ${whole}`, ["ok"]);
      const infos = answer.filter((l) => l.startsWith("info "));
      assert.ok(infos.length > 0, "a search writes info lines");
      for (const info of infos) {
        const m = / move (.*)$/.exec(info);
        assert.ok(info.startsWith("info bot ") || (m && moves.includes(m[1])), info);
      }
      move = answer.at(-1).slice("bestmove ".length);
      assert.ok(moves.includes(move), `bestmove ${move} is one of: ${moves.join(", ")}`);
    }
    await ask(`play ${move}`, ["ok"]);
    plies += 1;
    assert.ok(plies <= 100, "a hand ends");
  }
  const [report] = await ask("report", ["report"]);
  const data = JSON.parse(report.slice("report ".length));
  assert.equal(data.game, preset === "chkobba" || preset === "escoba" ? preset : "scopa");
  assert.equal(data.points.length, 2, "two sides score");
  return plies;
}

async function main() {
  await check("identify", async () => {
    const got = await ask("capturefast", ["capturefastok"]);
    assert.ok(got[0].startsWith("id name capturefast "), got[0]);
    assert.ok(got.some((l) => l.startsWith("option name Worlds ")));
    assert.ok(got.some((l) => l.startsWith("id bots ") && l.includes(" expert")));
    const [ready] = await ask("isready", ["readyok"]);
    assert.equal(ready, "readyok");
  });
  for (const [preset, players, seed] of [
    ["scopa", 2, 1],
    ["escoba", 2, 2],
    ["chkobba", 2, 3],
    ["scopa", 4, 4],
    ["escoba", 4, 5],
    ["chkobba", 4, 6],
  ]) {
    await check(`hand of ${preset}, ${players} players, seed ${seed}`, async () => {
      const plies = await playHand(preset, players, seed);
      assert.ok(plies >= 36 / players, `${plies} plies`);
    });
  }
  for (const [preset, players, seed] of [
    ["scopa", 2, 11],
    ["chkobba", 4, 12],
  ]) {
    await check(`hand of ${preset}, ${players} players, the engine sent views`, async () => {
      await playHand(preset, players, seed, true);
    });
  }
  await check("stop ends an infinite search with a legal move", async () => {
    await ask("rules scopa", ["ok"]);
    await ask("position deal seed 9", ["ok"]);
    const moves = await legal();
    send("go infinite");
    const first = await next();
    assert.ok(first.startsWith("info "), first);
    const start = Date.now();
    send("stop");
    let line = first;
    while (!line.startsWith("bestmove")) line = await next(5000);
    assert.ok(Date.now() - start < 5000, "the answer came soon after stop");
    assert.ok(moves.includes(line.slice("bestmove ".length)), line);
  });
  await check("isready during a search is answered at once", async () => {
    send("go infinite");
    await next();
    send("isready");
    let line;
    do line = await next(5000);
    while (line.startsWith("info "));
    assert.equal(line, "readyok");
    send("stop");
    do line = await next(5000);
    while (!line.startsWith("bestmove"));
  });
  await check("solve answers the exact value", async () => {
    const got = await ask("solve", ["solution"]);
    assert.match(got.at(-1), /^solution value [+-]\d+ nodes \d+ time \d+ best .+$/);
  });
  await check("stop ends a solve, a world's exact solve and a bot's decision", async () => {
    /** Sends `text`, then `stop` 100 ms later; the lines up to the first not an `info`. */
    const stopped = async (text) => {
      send(text);
      await new Promise((resolve) => setTimeout(resolve, 100));
      send("stop");
      const got = [];
      do got.push(await next(5000));
      while (got.at(-1).startsWith("info "));
      return got;
    };
    // Scopone's ten-card hands from the deal are beyond the exact solver: without a stop, the
    // solve gives up with an error, and the hand horizon's first world falls back to the round
    // search, only past the node limit.
    await ask("rules scopone_scientifico", ["ok"]);
    await ask("position deal seed 1", ["ok"]);
    const moves = await legal();
    const solved = (await stopped("solve")).at(-1);
    assert.match(solved, /^error .*stopped/, solved);
    const best = (await stopped("go horizon hand worlds 10")).at(-1);
    assert.ok(moves.includes(best.slice("bestmove ".length)), best);
    // A bot's decision that would take minutes: 10,000 worlds of a 4-player deal solved to
    // the hand's end.
    await ask("rules scopa players 4", ["ok"]);
    await ask("position deal seed 1", ["ok"]);
    const four = await legal();
    const got = await stopped("go bot pimc:worlds=10000,horizon=hand");
    assert.ok(got.length === 2 && got[0].startsWith("info bot "), got.join(" | "));
    assert.ok(four.includes(got[1].slice("bestmove ".length)), got[1]);
    await ask("rules scopa", ["ok"]);
    await ask("position deal seed 9", ["ok"]);
  });
  await check("bad input gets one error line naming the bad token", async () => {
    for (const [text, token] of [
      ["frobnicate", "frobnicate"],
      ["play 9Z", "9Z"],
      ["go worlds many", "many"],
      ["go depth 3", "depth"],
      ["rules nosuchgame", "nosuchgame"],
      ["setoption name Horizon value forever", "forever"],
    ]) {
      const [line] = await ask(text, ["error"]);
      assert.ok(line.startsWith("error ") && line.includes(token), `${text} -> ${line}`);
    }
    const [ready] = await ask("isready", ["readyok"]);
    assert.equal(ready, "readyok", "the engine still answers");
  });
  send("quit");
  const code = await new Promise((resolve) => engine.on("exit", resolve));
  await check("quit exits with status 0", async () => assert.equal(code, 0));
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.log(`FAILED client: ${e.stack}`);
  engine.kill();
  process.exit(1);
});
