import { chromium } from 'playwright-core';
import fs from 'node:fs';
const extra = process.env.EXTRA ? process.env.EXTRA.split(' ') : [];
const args = ['--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync', ...extra];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args });
const bpid = browser._initializer?.pid;
function chromeCpu() {
  const procs = new Map();
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try { const s = fs.readFileSync(`/proc/${p}/stat`, 'utf8'); const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(p), { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100 }); } catch {}
  }
  const mine = new Set([process.pid]); let grew = true;
  while (grew) { grew = false; for (const [p, v] of procs) if (!mine.has(p) && mine.has(v.ppid)) { mine.add(p); grew = true; } }
  let t = 0; for (const p of mine) if (p !== process.pid) t += procs.get(p).cpu; return t;
}
const a = chromeCpu(); const t = Date.now();
for (let i = 0; i < 4; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 }, reducedMotion: process.env.RM ? 'reduce' : undefined });
  const page = await ctx.newPage();
  await page.goto('http://127.0.0.1:3000/login');
  await page.getByLabel('Email').fill('owner@demo.test');
  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  for (const path of ['/customers', '/units', '/billing']) { await page.goto('http://127.0.0.1:3000' + path); await page.waitForLoadState('networkidle'); }
  await ctx.close();
}
console.log(process.env.EXTRA ?? 'base', process.env.RM ? 'reducedMotion' : '', 'cpu', (chromeCpu() - a).toFixed(2), 'ms', Date.now() - t);
await browser.close();
