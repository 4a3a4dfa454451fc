// ---- literals_and_consts
// uses: ["ReadWrite", "ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            out: &::rumba::kernel::GlobalView<'_, f64>,
            bits: &::rumba::kernel::GlobalView<'_, u32>,
            wide: &::rumba::kernel::GlobalView<'_, i64>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = *out;
            let bits = *bits;
            let wide = *wide;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let int_: i32 = 3i32;
                        let x: f32 = ((-2.5f32)
                            * ::rumba::kernel::__macro::ty::<f32>(SCALE));
                        out.set(0usize, f64::INFINITY);
                        out.set(1usize, f64::NAN);
                        out.set(2usize, (-0f64));
                        out.set(
                            3usize,
                            0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001f64,
                        );
                        out.set(4usize, (((x) as f64) + ((int_) as f64)));
                        bits.set(
                            0usize,
                            (4294967295u32 & ::rumba::kernel::__macro::ty::<u32>(MASK)),
                        );
                        bits.set(1usize, ((!0u32)).wrapping_shr((4i32) as u32));
                        wide.set(0usize, i64::MIN);
                        wide.set(
                            1usize,
                            (::rumba::kernel::__macro::ty::<i64>(BIAS))
                                .wrapping_mul(((N) as i64)),
                        );
                        wide.set(2usize, (((i) as i64)).wrapping_neg());
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let out = <::rumba::kernel::Arr<
                f64,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let bits = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let wide = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &bits, &wide),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &bits, &wide),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- operators
// uses: ["ReadWrite", "OwnIndexStore", "OwnIndexStore", "OwnIndexStore"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            a: &::rumba::kernel::GlobalView<'_, i16>,
            __out_b: &::rumba::kernel::wil::OwnOut<'_, u64, __W, 1usize>,
            __out_f: &::rumba::kernel::wil::OwnOut<'_, f32, __W, 1usize>,
            __out_flags: &::rumba::kernel::wil::OwnOut<'_, u8, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let b = __out_b.block(__blk);
            let f = __out_f.block(__blk);
            let flags = __out_flags.block(__blk);
            if let (
                ::core::option::Option::Some(__win_b),
                ::core::option::Option::Some(__win_f),
                ::core::option::Option::Some(__win_flags),
            ) = (
                __out_b.own_window(__blk),
                __out_f.own_window(__blk),
                __out_flags.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut v: i16 = a.get(i);
                            v = (v).wrapping_add(3i16);
                            v = (v).wrapping_sub(a.get(0usize));
                            v = (v).wrapping_mul(2i16);
                            v = (v / 7i16);
                            v = (v % 5i16);
                            v = (v).wrapping_shl((2i32) as u32);
                            v = (v).wrapping_shr((1i32) as u32);
                            v = (v & 127i16);
                            v = (v | 1i16);
                            v = (v ^ (-1i16));
                            a.set(i, (v).wrapping_neg());
                            {
                                let __rumba_v: u64 = 1u64;
                                __win_b.set(__w, (__win_b.at(__w)).wrapping_add(__rumba_v));
                            }
                            {
                                let __rumba_v: u8 = 3u8;
                                __win_b
                                    .set(
                                        __w,
                                        (__win_b.at(__w)).wrapping_shl((__rumba_v) as u32),
                                    );
                            }
                            {
                                let __rumba_v: f32 = 2f32;
                                __win_f.set(__w, (__win_f.at(__w) % __rumba_v));
                            }
                            __win_f.set(__w, ((-__win_f.at(__w)) / 3f32));
                            let yes: bool = ((v > 0i16)
                                && ((__win_b.at(__w) != 0u64)
                                    || (!(__win_f.at(__w) >= 1f32))));
                            __win_flags.set(__w, ((yes) as u8));
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut v: i16 = a.get(i);
                            v = (v).wrapping_add(3i16);
                            v = (v).wrapping_sub(a.get(0usize));
                            v = (v).wrapping_mul(2i16);
                            v = (v / 7i16);
                            v = (v % 5i16);
                            v = (v).wrapping_shl((2i32) as u32);
                            v = (v).wrapping_shr((1i32) as u32);
                            v = (v & 127i16);
                            v = (v | 1i16);
                            v = (v ^ (-1i16));
                            a.set(i, (v).wrapping_neg());
                            {
                                let __rumba_i = i;
                                let __rumba_v: u64 = 1u64;
                                b.set(
                                    __rumba_i,
                                    (b.get(__rumba_i)).wrapping_add(__rumba_v),
                                );
                            }
                            {
                                let __rumba_i = i;
                                let __rumba_v: u8 = 3u8;
                                b.set(
                                    __rumba_i,
                                    (b.get(__rumba_i)).wrapping_shl((__rumba_v) as u32),
                                );
                            }
                            {
                                let __rumba_i = i;
                                let __rumba_v: f32 = 2f32;
                                f.set(__rumba_i, (f.get(__rumba_i) % __rumba_v));
                            }
                            f.set(i, ((-f.get(i)) / 3f32));
                            let yes: bool = ((v > 0i16)
                                && ((b.get(i) != 0u64) || (!(f.get(i) >= 1f32))));
                            flags.set(i, ((yes) as u8));
                        },
                    );
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let a = <::rumba::kernel::Arr<
                i16,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let __out_b = ::rumba::kernel::wil::OwnOut::<
                u64,
                __W,
                1usize,
            >::from_arg(&__args[1usize], 1usize, &__cfg)?;
            let __out_f = ::rumba::kernel::wil::OwnOut::<
                f32,
                __W,
                1usize,
            >::from_arg(&__args[2usize], 2usize, &__cfg)?;
            let __out_flags = ::rumba::kernel::wil::OwnOut::<
                u8,
                __W,
                1usize,
            >::from_arg(&__args[3usize], 3usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &a, &__out_b, &__out_f, &__out_flags),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &a, &__out_b, &__out_f, &__out_flags),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(
                __launch.args(),
                &[1usize, 2usize, 3usize],
                &__cfg,
            ),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- casts_and_math
// uses: ["Read", "ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::wil::GlobalIn<'_, f64, 1usize, __R>,
            out: &::rumba::kernel::GlobalView<'_, i32>,
            g: &::rumba::kernel::GlobalView<'_, f64>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let out = *out;
            let g = *g;
            if let (::core::option::Option::Some(__win_x),) = (x.own_window(__blk),) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let v: f64 = __win_x.at(__w);
                            out.set((4usize).wrapping_mul(i), ((v) as i32));
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(1usize),
                                ((((((v) as f32)) as u8)) as i32),
                            );
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(2usize),
                                ((<i64>::wrapping_mul(((v) as i64), 3i64)) as i32),
                            );
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(3usize),
                                <i32>::wrapping_abs(
                                    <i32>::min(
                                        <i32>::max(((<f64>::is_nan(v)) as i32), (-7i32)),
                                        9i32,
                                    ),
                                ),
                            );
                            g.set(
                                i,
                                <f64>::abs(
                                    <f64>::sqrt(
                                        <f64>::mul_add(
                                            <f64>::round(
                                                <f64>::ceil(
                                                    <f64>::floor(
                                                        <f64 as ::rumba::kernel::math::Real>::powi(
                                                            <f64 as ::rumba::kernel::math::Real>::powf(
                                                                <f64 as ::rumba::kernel::math::Real>::cos(
                                                                    <f64 as ::rumba::kernel::math::Real>::sin(
                                                                        <f64 as ::rumba::kernel::math::Real>::ln(
                                                                            <f64 as ::rumba::kernel::math::Real>::exp(
                                                                                <f64 as ::rumba::kernel::math::Real>::tan(v),
                                                                            ),
                                                                        ),
                                                                    ),
                                                                ),
                                                                2f64,
                                                            ),
                                                            (-2i32),
                                                        ),
                                                    ),
                                                ),
                                            ),
                                            v,
                                            v,
                                        ),
                                    ),
                                ),
                            );
                            g.set(
                                (i).wrapping_add(1usize),
                                (<f64>::max(v, 0f64) + <f64>::min(v, 1f64)),
                            );
                            let w: i32 = <i32>::wrapping_neg(
                                <i32>::wrapping_sub(
                                    <i32>::wrapping_add(5i32, out.get(0usize)),
                                    1i32,
                                ),
                            );
                            out.set(0usize, w);
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let v: f64 = x.get(i);
                            out.set((4usize).wrapping_mul(i), ((v) as i32));
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(1usize),
                                ((((((v) as f32)) as u8)) as i32),
                            );
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(2usize),
                                ((<i64>::wrapping_mul(((v) as i64), 3i64)) as i32),
                            );
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(3usize),
                                <i32>::wrapping_abs(
                                    <i32>::min(
                                        <i32>::max(((<f64>::is_nan(v)) as i32), (-7i32)),
                                        9i32,
                                    ),
                                ),
                            );
                            g.set(
                                i,
                                <f64>::abs(
                                    <f64>::sqrt(
                                        <f64>::mul_add(
                                            <f64>::round(
                                                <f64>::ceil(
                                                    <f64>::floor(
                                                        <f64 as ::rumba::kernel::math::Real>::powi(
                                                            <f64 as ::rumba::kernel::math::Real>::powf(
                                                                <f64 as ::rumba::kernel::math::Real>::cos(
                                                                    <f64 as ::rumba::kernel::math::Real>::sin(
                                                                        <f64 as ::rumba::kernel::math::Real>::ln(
                                                                            <f64 as ::rumba::kernel::math::Real>::exp(
                                                                                <f64 as ::rumba::kernel::math::Real>::tan(v),
                                                                            ),
                                                                        ),
                                                                    ),
                                                                ),
                                                                2f64,
                                                            ),
                                                            (-2i32),
                                                        ),
                                                    ),
                                                ),
                                            ),
                                            v,
                                            v,
                                        ),
                                    ),
                                ),
                            );
                            g.set(
                                (i).wrapping_add(1usize),
                                (<f64>::max(v, 0f64) + <f64>::min(v, 1f64)),
                            );
                            let w: i32 = <i32>::wrapping_neg(
                                <i32>::wrapping_sub(
                                    <i32>::wrapping_add(5i32, out.get(0usize)),
                                    1i32,
                                ),
                            );
                            out.set(0usize, w);
                        },
                    );
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = ::rumba::kernel::wil::GlobalIn::<
                f64,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let g = <::rumba::kernel::Arr<
                f64,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out, &g),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out, &g),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (true, _) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- control
// uses: ["OwnIndexStore"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, u32, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = __out_out.block(__blk);
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if false {
                                {
                                    __blk.exit(__w);
                                    return;
                                }
                            }
                            let mut acc: u32 = 0u32;
                            let mut k: u32 = 0u32;
                            while (k < 10u32) {
                                k = (k).wrapping_add(1u32);
                                if (k == 3u32) {
                                    continue;
                                }
                                acc = (acc).wrapping_add(k);
                            }
                            loop {
                                acc = (acc).wrapping_sub(1u32);
                                if (acc < 40u32) {
                                    break;
                                }
                            }
                            for j in ((2u32)..=(20u32)).step_by(4usize) {
                                acc = (acc ^ j);
                            }
                            for _i in (0i32)..(2i32) {
                                acc = (acc).wrapping_add(1u32);
                            }
                            let mut rb_t5: u32;
                            {
                                let doubled: u32 = (acc).wrapping_mul(2u32);
                                rb_t5 = (doubled).wrapping_add(1u32);
                            }
                            let acc_2: u32 = rb_t5;
                            let parity: u32 = (if ((acc_2 % 2u32) == 0u32) {
                                0u32
                            } else {
                                (if ((acc_2 % 3u32) == 0u32) { 1u32 } else { 2u32 })
                            });
                            if !((parity < 3u32)) {
                                ::core::panic!(
                                    "{}",
                                    "assertion failed: `assert!(parity < 3)` at line 144:5"
                                )
                            }
                            __win_out.set(__w, (acc_2).wrapping_add(parity));
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i >= out.len()) {
                                {
                                    __blk.exit(__w);
                                    return;
                                }
                            }
                            let mut acc: u32 = 0u32;
                            let mut k: u32 = 0u32;
                            while (k < 10u32) {
                                k = (k).wrapping_add(1u32);
                                if (k == 3u32) {
                                    continue;
                                }
                                acc = (acc).wrapping_add(k);
                            }
                            loop {
                                acc = (acc).wrapping_sub(1u32);
                                if (acc < 40u32) {
                                    break;
                                }
                            }
                            for j in ((2u32)..=(20u32)).step_by(4usize) {
                                acc = (acc ^ j);
                            }
                            for _i in (0i32)..(2i32) {
                                acc = (acc).wrapping_add(1u32);
                            }
                            let mut rb_t5: u32;
                            {
                                let doubled: u32 = (acc).wrapping_mul(2u32);
                                rb_t5 = (doubled).wrapping_add(1u32);
                            }
                            let acc_2: u32 = rb_t5;
                            let parity: u32 = (if ((acc_2 % 2u32) == 0u32) {
                                0u32
                            } else {
                                (if ((acc_2 % 3u32) == 0u32) { 1u32 } else { 2u32 })
                            });
                            if !((parity < 3u32)) {
                                ::core::panic!(
                                    "{}",
                                    "assertion failed: `assert!(parity < 3)` at line 144:5"
                                )
                            }
                            out.set(i, (acc_2).wrapping_add(parity));
                        },
                    );
            }
            if __blk.all_exited() {
                return;
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                u32,
                __W,
                1usize,
            >::from_arg(&__args[0usize], 0usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_out),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[0usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- memory
// coroutines only: it calls a #[rumba::device] function that takes the thread context
// ---- atomics_all
// uses: ["ReadWrite", "ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            g: &::rumba::kernel::GlobalView<'_, u32>,
            s64: &::rumba::kernel::GlobalView<'_, i64>,
            f: &::rumba::kernel::GlobalView<'_, f32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let g = *g;
            let s64 = *s64;
            let f = *f;
            let sh = __blk.shared_array::<i32, 1usize>([4usize]);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: u32 = (((__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize)) as u32);
                        g.atomic_add(0usize, i);
                        g.atomic_sub(1usize, i);
                        g.atomic_min(2usize, i);
                        g.atomic_max(3usize, i);
                        g.atomic_and(4usize, i);
                        g.atomic_or(5usize, i);
                        g.atomic_xor(6usize, i);
                        g.atomic_exch(7usize, i);
                        g.atomic_cas(8usize, 0u32, i);
                        g.atomic_inc(9usize, 16u32);
                        g.atomic_dec(10usize, 16u32);
                        g.atomic_nanmax(11usize, i);
                        g.atomic_nanmin(12usize, i);
                        s64.atomic_add(0usize, (-1i64));
                        s64.atomic_max(1usize, ((i) as i64));
                        f.atomic_add(0usize, 1.5f32);
                        f.atomic_min(1usize, 0.5f32);
                        f.atomic_exch(2usize, 2f32);
                        f.atomic_cas(3usize, 0f32, 1f32);
                        f.atomic_nanmax(4usize, ((i) as f32));
                        f.atomic_nanmin(5usize, (-((i) as f32)));
                        sh.atomic_add(0usize, 1i32);
                        sh.atomic_nanmax(1usize, ((i) as i32));
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let g = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let s64 = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let f = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &g, &s64, &f),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &g, &s64, &f),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
