import * as v from 'valibot'
import { ProductInput, ProductListInput, ProductStatePatch } from '../../../src/domains/products/schemas'
import { Key } from '../../../src/valibot-helpers'
import { PRODUCT_READERS, PRODUCT_WRITERS } from './access'
import { procedure, router } from '../../trpc/init'
import { deleteProductDoc } from './docs'
import * as products from './service'


const read = procedure({ scope: PRODUCT_READERS })
const write = procedure({ scope: PRODUCT_WRITERS })

export const productsRouter = router({
  list: read.input(ProductListInput).query(({ ctx, input }) => products.listProducts(ctx, input)),
  get: read.input(v.object({ key: Key })).query(({ ctx, input }) => products.getProduct(ctx, input.key)),
  create: write.input(ProductInput).mutation(({ ctx, input }) => products.createProduct(ctx, ctx.actor, input)),
  update: write
    .input(v.object({ key: Key, product: ProductInput }))
    .mutation(({ ctx, input }) => products.updateProduct(ctx, ctx.actor, input.key, input.product)),
  setState: write
    .input(v.object({ key: Key, patch: ProductStatePatch }))
    .mutation(({ ctx, input }) => products.setProductState(ctx, ctx.actor, input.key, input.patch)),
  removeImage: write.input(v.object({ key: Key })).mutation(({ ctx, input }) => products.removeProductImage(ctx, ctx.actor, input.key)),
  removeDoc: write
    .input(v.object({ key: Key, name: v.pipe(v.string(), v.minLength(1), v.maxLength(300)) }))
    .mutation(({ ctx, input }) => deleteProductDoc(ctx, ctx.actor, input.key, input.name)),
})
