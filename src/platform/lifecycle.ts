// Disposables in the style of vscode-pull-request-github's src/common/lifecycle.ts.

export interface IDisposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      fn();
    },
  };
}

export function disposeAll(items: Iterable<IDisposable>): void {
  const errors: unknown[] = [];
  for (const item of [...items].reverse()) {
    try {
      item.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed');
}

export abstract class Disposable implements IDisposable {
  private _isDisposed = false;
  private readonly _disposables: IDisposable[] = [];

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    disposeAll(this._disposables.splice(0));
  }

  /** Owns `value`: it is disposed with this object, or at once if this object is already disposed. */
  protected _register<T extends IDisposable>(value: T): T {
    if (this._isDisposed) value.dispose();
    else this._disposables.push(value);
    return value;
  }
}

export class DisposableStore extends Disposable {
  add<T extends IDisposable>(value: T): T {
    return this._register(value);
  }
}

/** Holds at most one disposable: setting a new value disposes the old one (VS Code's MutableDisposable). */
export class MutableDisposable<T extends IDisposable = IDisposable> implements IDisposable {
  private current: T | undefined;
  private disposed = false;

  get value(): T | undefined {
    return this.current;
  }

  set value(value: T | undefined) {
    if (value === this.current) return;
    this.current?.dispose();
    if (this.disposed) {
      value?.dispose();
      this.current = undefined;
      return;
    }
    this.current = value;
  }

  dispose(): void {
    this.disposed = true;
    this.current?.dispose();
    this.current = undefined;
  }
}
