// pdfjs evaluates `new DOMMatrix()` when its module loads. Browsers and the optional native canvas
// package provide it; plain Node and the extension host do not. Text extraction never renders, so a
// small 2D affine matrix is enough to let the module load. It has what pdfjs 5 uses (a–f, multiply,
// invert, translate, scale); a full DOMMatrix's m11… aliases and isIdentity are left out, pdfjs reads none.

type Init = number[] | Float32Array | Float64Array | undefined;

class DomMatrixShim {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
  readonly is2D = true;

  constructor(init?: Init) {
    if (init && init.length >= 6) [this.a, this.b, this.c, this.d, this.e, this.f] = Array.from(init).slice(0, 6);
  }

  multiplySelf(o: DomMatrixShim): this {
    return this.set(
      this.a * o.a + this.c * o.b,
      this.b * o.a + this.d * o.b,
      this.a * o.c + this.c * o.d,
      this.b * o.c + this.d * o.d,
      this.a * o.e + this.c * o.f + this.e,
      this.b * o.e + this.d * o.f + this.f,
    );
  }

  preMultiplySelf(o: DomMatrixShim): this {
    const copy = new DomMatrixShim([o.a, o.b, o.c, o.d, o.e, o.f]).multiplySelf(this);
    return this.set(copy.a, copy.b, copy.c, copy.d, copy.e, copy.f);
  }

  multiply(o: DomMatrixShim): DomMatrixShim {
    return this.clone().multiplySelf(o);
  }
  translate(x = 0, y = 0): DomMatrixShim {
    return this.clone().translateSelf(x, y);
  }
  translateSelf(x = 0, y = 0): this {
    return this.multiplySelf(new DomMatrixShim([1, 0, 0, 1, x, y]));
  }
  scale(x = 1, y = x): DomMatrixShim {
    return this.clone().scaleSelf(x, y);
  }
  scaleSelf(x = 1, y = x): this {
    return this.multiplySelf(new DomMatrixShim([x, 0, 0, y, 0, 0]));
  }
  inverse(): DomMatrixShim {
    return this.clone().invertSelf();
  }

  invertSelf(): this {
    const det = this.a * this.d - this.b * this.c;
    if (!det) return this.set(NaN, NaN, NaN, NaN, NaN, NaN);
    return this.set(
      this.d / det,
      -this.b / det,
      -this.c / det,
      this.a / det,
      (this.c * this.f - this.d * this.e) / det,
      (this.b * this.e - this.a * this.f) / det,
    );
  }

  transformPoint(p: { x?: number; y?: number } = {}): { x: number; y: number; z: number; w: number } {
    const x = p.x ?? 0;
    const y = p.y ?? 0;
    return { x: this.a * x + this.c * y + this.e, y: this.b * x + this.d * y + this.f, z: 0, w: 1 };
  }

  private clone(): DomMatrixShim {
    return new DomMatrixShim([this.a, this.b, this.c, this.d, this.e, this.f]);
  }

  private set(a: number, b: number, c: number, d: number, e: number, f: number): this {
    Object.assign(this, { a, b, c, d, e, f });
    return this;
  }
}

/** Installs the shim only where no real DOMMatrix exists (Electron renderers and canvas keep theirs). */
export function installDomMatrixShim(): void {
  const g = globalThis as { DOMMatrix?: unknown };
  if (!g.DOMMatrix) g.DOMMatrix = DomMatrixShim;
}
