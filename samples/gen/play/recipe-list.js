'use strict'
// recipeList is every recipe of minecraft-data's 1.20.4 recipe list (mineflayer's: 2,409
// recipes, each tag ingredient expanded) in the params of a 1.20.4 declare_recipes packet,
// as a vanilla server sends it on join. recipes.js writes it alone; server.js sends it with
// MCD_RECIPES=1.
module.exports = function recipeList (mcData) {
  const slot = (id, count) => id == null ? { present: false } : { present: true, itemId: id, itemCount: count || 1, nbtData: undefined }
  const recipes = []
  let k = 0
  for (const list of Object.values(mcData.recipes)) {
    for (const r of list) {
      const result = slot(r.result.id, r.result.count)
      if (r.inShape) {
        const height = r.inShape.length
        const width = Math.max(...r.inShape.map(row => row.length))
        const ingredients = []
        for (let x = 0; x < width; x++) {
          const col = []
          for (let y = 0; y < height; y++) {
            const id = r.inShape[y][x]
            col.push(id == null ? [] : [slot(id, 1)])
          }
          ingredients.push(col)
        }
        recipes.push({ type: 'minecraft:crafting_shaped', recipeId: 'minecraft:r' + (k++), data: { group: '', category: 0, width, height, ingredients, result, showNotification: true } })
      } else {
        recipes.push({ type: 'minecraft:crafting_shapeless', recipeId: 'minecraft:r' + (k++), data: { group: '', category: 0, ingredients: r.ingredients.map(id => [slot(id, 1)]), result } })
      }
    }
  }
  return recipes
}
